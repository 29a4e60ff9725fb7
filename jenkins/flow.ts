/**
 * The failing steps of a pipeline build, read the way Jenkins recorded them (issue 26): the flow
 * nodes (three storage generations: per-node `<storageDir>/<id>.xml`, the bulk
 * `<storageDir>/flowNodeStore.xml`, `workflow-completed` for builds finished under workflow-cps
 * 3806+), each node's `ErrorAction`, the enclosing stages and parallel branches (block start and
 * end nodes, parent ids, `LabelAction`, the parallel branch's `branchName`, legacy
 * `StageAction`), and `log-index`, which says which bytes of the log each node wrote:
 * `<offset> <nodeId>` starts a node's output, `<offset>` alone output of no node, up to the
 * next line's offset. Builds older than log-index keep a node's output in `<id>.log` beside
 * `log`.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import path from 'node:path';
import type { FailingStep } from '../protocol/types.js';
import { maskSecrets } from '../core/secrets.js';
import { cleanLine } from '../core/log/clean.js';
import { child, childText, childrenNamed, errorMessage, parseXml, readTextFile, simpleClassName, xstreamClassName, type XmlElement } from './xml.js';
import { realInside } from './homeguard.js';

interface FlowNode {
  id: string;
  kind: 'start' | 'end' | 'atom' | 'flow-start' | 'flow-end';
  parents: string[];
  startId?: string;
  descriptorId?: string;
  label?: string;
  branch?: string;
  stageName?: string;
  argName?: string;
  body: boolean;
  error?: { errorClass: string; errorMessage: string };
}

const BULK = 'flowNodeStore.xml';
const NODE_FILE = /^(\d+)\.xml$/;
const SAFE_DIR = /^[A-Za-z0-9._-]+$/;
/** Flow stores larger than this are not parsed (a graph of hundreds of thousands of nodes). */
const MAX_STORE_BYTES = 64 * 1024 * 1024;
const MAX_NODE_FILES = 20000;
const STEP_LOG_LINES = 200;
const STEP_LOG_BYTES = 4 * 1024 * 1024;
const MAX_FAILING = 10;
const SCRIPT_STEP = '(pipeline script)';

const STEP_NAMES: Record<string, string> = {
  'org.jenkinsci.plugins.workflow.steps.durable_task.ShellStep': 'sh',
  'org.jenkinsci.plugins.workflow.steps.durable_task.BatchScriptStep': 'bat',
  'org.jenkinsci.plugins.workflow.steps.durable_task.PowershellScriptStep': 'powershell',
  'org.jenkinsci.plugins.workflow.steps.durable_task.PowerShellCoreScriptStep': 'pwsh',
  'org.jenkinsci.plugins.workflow.support.steps.StageStep': 'stage',
  'org.jenkinsci.plugins.workflow.support.steps.ExecutorStep': 'node',
  'org.jenkinsci.plugins.workflow.support.steps.WorkspaceStep': 'ws',
  'org.jenkinsci.plugins.workflow.cps.steps.ParallelStep': 'parallel',
  'org.jenkinsci.plugins.workflow.support.steps.build.BuildTriggerStep': 'build',
  'org.jenkinsci.plugins.workflow.steps.ErrorStep': 'error',
  'org.jenkinsci.plugins.workflow.steps.CoreStep': 'step',
  'org.jenkinsci.plugins.workflow.steps.TimeoutStep': 'timeout',
  'org.jenkinsci.plugins.workflow.steps.RetryStep': 'retry',
  'org.jenkinsci.plugins.workflow.steps.CatchErrorStep': 'catchError',
  'org.jenkinsci.plugins.credentialsbinding.impl.BindingStep': 'withCredentials',
  'org.jenkinsci.plugins.workflow.steps.EnvStep': 'withEnv',
  'hudson.tasks.junit.pipeline.JUnitResultsStep': 'junit',
  'org.jenkinsci.plugins.workflow.cps.steps.LoadStep': 'load',
  'org.jenkinsci.plugins.workflow.steps.scm.GenericSCMStep': 'checkout',
  'org.jenkinsci.plugins.workflow.steps.scm.GitStep': 'git',
  'org.jenkinsci.plugins.workflow.support.steps.input.InputStep': 'input',
};

/** `org.acme.FooBarStep` -> `fooBar` when the step is not one of the well-known ones. */
export function stepName(descriptorId: string | undefined): string {
  if (!descriptorId) return 'step';
  const known = STEP_NAMES[descriptorId];
  if (known) return known;
  const simple = simpleClassName(descriptorId).replace(/Step$/, '');
  return simple === '' ? descriptorId : simple.charAt(0).toLowerCase() + simple.slice(1);
}

function kindOf(cls: string): FlowNode['kind'] {
  const simple = cls.slice(cls.lastIndexOf('.') + 1);
  if (simple === 'FlowStartNode') return 'flow-start';
  if (simple === 'FlowEndNode') return 'flow-end';
  if (simple.endsWith('StartNode')) return 'start';
  if (simple.endsWith('EndNode')) return 'end';
  return 'atom';
}

/** The message of an `<error>` as Java would print it: `detailMessage`, or the fields a Groovy exception builds it from. */
function errorOf(el: XmlElement): { errorClass: string; errorMessage: string } {
  const errorClass = xstreamClassName(el.attrs['class'] ?? el.name);
  let message = childText(el, 'detailMessage') ?? childText(el, 'message') ?? '';
  if (message === '' && /MissingPropertyException$/.test(errorClass)) {
    const property = childText(el, 'property');
    const type = child(el, 'type')?.text.trim();
    if (property) message = `No such property: ${property}${type ? ` for class: ${type}` : ''}`;
  }
  if (message === '' && /MissingMethodException$/.test(errorClass)) {
    const method = childText(el, 'method');
    if (method) message = `No signature of method: ${method}`;
  }
  // A remote exception (`hudson.remoting.ProxyException`) carries the real class in its message.
  return { errorClass, errorMessage: maskSecrets(message.split('\n').slice(0, 20).join('\n').slice(0, 2000)) };
}

function nodeOf(tag: XmlElement, fallbackId: string): FlowNode | null {
  const n = child(tag, 'node');
  if (!n) return null;
  const id = childText(n, 'id') ?? fallbackId;
  const node: FlowNode = {
    id,
    kind: kindOf(xstreamClassName(n.attrs['class'] ?? '')),
    parents: childrenNamed(child(n, 'parentIds'), 'string').map((s) => s.text.trim()),
    body: false,
  };
  const startId = childText(n, 'startId');
  if (startId) node.startId = startId;
  const descriptorId = childText(n, 'descriptorId');
  if (descriptorId) node.descriptorId = descriptorId;
  for (const action of child(tag, 'actions')?.children ?? []) {
    const simple = simpleClassName(action.name);
    if (simple === 'ErrorAction') {
      const error = child(action, 'error');
      if (error) node.error = errorOf(error);
    } else if (simple === 'BodyInvocationAction') {
      node.body = true;
    } else if (simple === 'ArgumentsActionImpl') {
      for (const entry of childrenNamed(child(action, 'arguments'), 'entry')) {
        const [key, value] = entry.children;
        if (key?.text.trim() === 'name' && value) node.argName = value.text.trim();
      }
    }
    const branch = childText(action, 'branchName') ?? childText(action, 'threadName');
    if (branch) node.branch = branch;
    const display = childText(action, 'displayName');
    if (display && /LabelAction/.test(simple)) node.label = display;
    const stageName = childText(action, 'stageName');
    if (stageName) node.stageName = stageName;
  }
  return node;
}

/** Every flow node of a build, by id; null when it has no flow storage (or it is too large). */
export async function readFlowNodes(buildDir: string, storageDir?: string): Promise<Map<string, FlowNode> | null> {
  const named = storageDir && SAFE_DIR.test(storageDir) && storageDir !== '.' && storageDir !== '..' ? storageDir : 'workflow';
  for (const dir of [named, ...['workflow', 'workflow-completed'].filter((d) => d !== named)]) {
    const storage = path.join(buildDir, dir);
    let names: string[];
    try {
      names = await readdir(storage);
    } catch {
      continue;
    }
    const nodes = new Map<string, FlowNode>();
    if (names.includes(BULK)) {
      const file = path.join(storage, BULK);
      if ((await stat(file)).size > MAX_STORE_BYTES) return null;
      const root = parseXml(await readTextFile(file), file);
      for (const entry of childrenNamed(root, 'entry')) {
        const id = childText(entry, 'string') ?? '';
        const tag = child(entry, 'Tag');
        const node = tag ? nodeOf(tag, id) : null;
        if (node) nodes.set(node.id, node);
      }
    }
    const files = names.filter((n) => NODE_FILE.test(n)).slice(0, MAX_NODE_FILES);
    for (const name of files) {
      const id = NODE_FILE.exec(name)?.[1] ?? '';
      if (nodes.has(id)) continue;
      try {
        const file = path.join(storage, name);
        const node = nodeOf(parseXml(await readTextFile(file), file), id);
        if (node) nodes.set(node.id, node);
      } catch {
        /* one unreadable node costs only itself */
      }
    }
    if (nodes.size > 0) return nodes;
  }
  return null;
}

interface Enclosing {
  stages: string[];
  branch?: string;
}

/** The stages (outermost first) and the parallel branch around a node, by walking its parents. */
function enclosingOf(nodes: Map<string, FlowNode>, start: FlowNode): Enclosing {
  const stages: string[] = [];
  let branch: string | undefined;
  let cur: FlowNode | undefined = start.kind === 'end' && start.startId ? nodes.get(start.startId) : start;
  const seen = new Set<string>();
  while (cur && !seen.has(cur.id) && seen.size < 100000) {
    seen.add(cur.id);
    const parent: FlowNode | undefined = cur.parents[0] !== undefined ? nodes.get(cur.parents[0]) : undefined;
    if (!parent) break;
    if (parent.kind === 'end' && parent.startId) {
      // A block that ended before this node: skip it whole.
      cur = nodes.get(parent.startId);
      continue;
    }
    if (parent.kind === 'start') {
      const step = stepName(parent.descriptorId);
      if (parent.branch !== undefined && branch === undefined) branch = parent.branch;
      else if (step === 'parallel' && parent.label?.startsWith('Branch: ') && branch === undefined) branch = parent.label.slice(8);
      else if (step === 'stage' && parent.body) stages.unshift(parent.label ?? parent.argName ?? 'stage');
    } else if (parent.stageName !== undefined) {
      // The legacy `stage 'name'` step (no block): every node after it is in that stage.
      stages.unshift(parent.stageName);
    }
    cur = parent;
  }
  // Legacy stages are not nested: keep the nearest.
  return { stages: dedupe(stages), ...(branch !== undefined ? { branch } : {}) };
}

function dedupe(list: string[]): string[] {
  return list.filter((s, i) => list.indexOf(s) === i);
}

/** The node whose block a node is inside, nearest first (for "is X inside Y"). */
function isInside(nodes: Map<string, FlowNode>, inner: FlowNode, startId: string): boolean {
  let cur: FlowNode | undefined = inner;
  const seen = new Set<string>();
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id);
    const parent: FlowNode | undefined = cur.parents[0] !== undefined ? nodes.get(cur.parents[0]) : undefined;
    if (!parent) return false;
    if (parent.id === startId) return true;
    cur = parent.kind === 'end' && parent.startId ? nodes.get(parent.startId) : parent;
  }
  return false;
}

const byId = (a: FlowNode, b: FlowNode): number => Number(a.id) - Number(b.id);

/**
 * The steps that failed: nodes carrying an `ErrorAction` that are steps (atoms, or block starts
 * that failed before their body), never the block ends the error only passed through. When
 * only block ends carry it, the Groovy code inside the innermost such block threw it
 * (`(pipeline script)`). Steps whose error is the one that ended the build come first.
 */
export function failingStepsOf(nodes: Map<string, FlowNode>): (FailingStep & { nodeId: string })[] {
  const all = [...nodes.values()].sort(byId);
  const final = all.find((n) => n.kind === 'flow-end')?.error;
  const sameAsFinal = (n: FlowNode): boolean => final !== undefined && n.error?.errorClass === final.errorClass && n.error.errorMessage === final.errorMessage;
  let chosen = all.filter((n) => n.error && (n.kind === 'atom' || n.kind === 'start'));
  // A block start that failed around a failing step inside it is not another failure.
  chosen = chosen.filter((n) => n.kind === 'atom' || !chosen.some((m) => m !== n && isInside(nodes, m, n.id)));
  let script = false;
  if (chosen.length === 0) {
    const ends = all.filter((n) => n.error && n.kind === 'end' && n.startId);
    // The innermost: an end whose block holds no other failing end.
    chosen = ends.filter((e) => !ends.some((o) => o !== e && o.startId !== undefined && e.startId !== undefined && isInside(nodes, nodes.get(o.startId) ?? o, e.startId)));
    script = true;
  }
  if (chosen.length === 0 && final) {
    return [{ step: SCRIPT_STEP, nodeId: all.find((n) => n.kind === 'flow-end')?.id ?? '', errorClass: final.errorClass, errorMessage: final.errorMessage }];
  }
  chosen.sort((a, b) => Number(sameAsFinal(b)) - Number(sameAsFinal(a)) || byId(a, b));
  return chosen.slice(0, MAX_FAILING).map((n) => {
    const where = enclosingOf(nodes, n);
    const error = n.error ?? { errorClass: '', errorMessage: '' };
    const startNode = n.kind === 'end' && n.startId ? nodes.get(n.startId) : undefined;
    // An error thrown by the Groovy code of a stage's body: the stage itself is where.
    if (script && startNode && stepName(startNode.descriptorId) === 'stage' && startNode.body) where.stages.push(startNode.label ?? startNode.argName ?? 'stage');
    const step: FailingStep & { nodeId: string } = {
      step: script ? SCRIPT_STEP : stepName(n.descriptorId),
      nodeId: n.id,
      errorClass: error.errorClass,
      errorMessage: error.errorMessage,
    };
    const stage = where.stages[where.stages.length - 1];
    if (stage !== undefined) step.stage = stage;
    if (where.stages.length > 1) step.stagePath = where.stages;
    if (where.branch !== undefined) step.branch = where.branch;
    if (/AbortException$/.test(error.errorClass) && /^script returned exit code \d+/.test(error.errorMessage)) step.wrapper = true;
    return step;
  });
}

/** `log-index`: the byte ranges `[start, end)` each node wrote. */
export function parseLogIndex(text: string, logBytes: number): Map<string, [number, number][]> {
  const entries: { offset: number; id?: string }[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+)(?: (\S+))?\s*$/.exec(line);
    if (m) entries.push({ offset: Number(m[1]), ...(m[2] !== undefined ? { id: m[2] } : {}) });
  }
  const out = new Map<string, [number, number][]>();
  entries.forEach((e, i) => {
    if (e.id === undefined) return;
    const end = Math.min(entries[i + 1]?.offset ?? logBytes, logBytes);
    if (end <= e.offset) return;
    const list = out.get(e.id) ?? [];
    list.push([e.offset, end]);
    out.set(e.id, list);
  });
  return out;
}

/** How far the log is read to number lines (plain bytes, or inflated bytes of `log.gz`). */
export const LINE_SCAN_MAX_BYTES = 1024 * 1024 * 1024;

/** The build's console log as Jenkins left it: `log`, else `log.gz` (compress-buildlog plugin). */
export interface BuildLog {
  file: string;
  gzip: boolean;
}

/** `log`, else `log.gz`, when it is a regular file inside the build folder; null without one. */
export async function findBuildLog(buildDir: string): Promise<BuildLog | null> {
  for (const [name, gzip] of [['log', false], ['log.gz', true]] as const) {
    const file = path.join(buildDir, name);
    try {
      if (!(await stat(file)).isFile()) continue;
    } catch {
      continue;
    }
    // A log that is a link out of its build folder is not read (as for the tail, builds.ts).
    if (!(await realInside(buildDir, file))) return null;
    return { file, gzip };
  }
  return null;
}

/** What one pass over a log found (`scanLog`). */
export interface LogScan {
  /** 1-based line number of each wanted byte offset the pass reached. */
  lineAt: Map<number, number>;
  /** For each list of byte ranges asked for, its last `keep` bytes (ranges in order, joined). */
  tails: Buffer[];
  /** Lines of the whole log (a final newline opens no line), when the pass reached its end. */
  totalLines?: number;
  /** Bytes read (inflated bytes for `log.gz`). */
  bytes: number;
}

function newlinesIn(buf: Buffer, from: number, to: number): number {
  let n = 0;
  let i = buf.indexOf(0x0a, from);
  while (i !== -1 && i < to) {
    n++;
    i = buf.indexOf(0x0a, i + 1);
  }
  return n;
}

/** The last `keep` bytes of what is pushed, in chunks (one chunk of slack). */
class TailBuffer {
  private readonly parts: Buffer[] = [];
  private size = 0;
  constructor(private readonly keep: number) {}
  push(b: Buffer): void {
    if (b.length === 0) return;
    this.parts.push(Buffer.from(b));
    this.size += b.length;
    while (this.parts.length > 1 && this.size - (this.parts[0] as Buffer).length >= this.keep) this.size -= (this.parts.shift() as Buffer).length;
  }
  value(): Buffer {
    const all = Buffer.concat(this.parts);
    return all.length > this.keep ? all.subarray(all.length - this.keep) : all;
  }
}

/**
 * One streaming pass over a log (`log`, or `log.gz` through gunzip): the line numbers of byte
 * offsets (`log-index` offsets are bytes of the uncompressed log), the last `keep` bytes of
 * each list of byte ranges (a range may end at Infinity: up to the end of the log), and the
 * total line count. Memory: one chunk and the kept bytes; the pass stops after `maxBytes`
 * (then offsets beyond are not numbered and there is no total).
 */
export async function scanLog(
  log: BuildLog,
  offsets: readonly number[],
  rangeLists: readonly (readonly (readonly [number, number])[])[] = [],
  keep = STEP_LOG_BYTES,
  maxBytes = LINE_SCAN_MAX_BYTES,
): Promise<LogScan> {
  const wanted = [...new Set(offsets)].filter((o) => o >= 0).sort((a, b) => a - b);
  const lineAt = new Map<number, number>();
  const tails = rangeLists.map(() => new TailBuffer(keep));
  const next = rangeLists.map(() => 0);
  let position = 0;
  let newlines = 0;
  let lastByte = 0x0a;
  let k = 0;
  let complete: boolean;
  const source = createReadStream(log.file, { highWaterMark: 1024 * 1024 });
  const stream = log.gzip ? source.pipe(createGunzip()) : source;
  if (log.gzip) source.on('error', (err) => stream.destroy(err));
  try {
    for await (const data of stream) {
      const chunk = data as Buffer;
      const end = position + chunk.length;
      let from = 0;
      while (k < wanted.length && (wanted[k] as number) < end) {
        const at = (wanted[k] as number) - position;
        newlines += newlinesIn(chunk, from, at);
        from = at;
        lineAt.set(wanted[k++] as number, newlines + 1);
      }
      newlines += newlinesIn(chunk, from, chunk.length);
      rangeLists.forEach((ranges, r) => {
        let i = next[r] as number;
        while (i < ranges.length && (ranges[i] as readonly [number, number])[1] <= position) i++;
        for (let j = i; j < ranges.length && (ranges[j] as readonly [number, number])[0] < end; j++) {
          const [a, b] = ranges[j] as readonly [number, number];
          const lo = Math.max(a, position);
          const hi = Math.min(b, end);
          if (lo < hi) tails[r]?.push(chunk.subarray(lo - position, hi - position));
        }
        next[r] = i;
      });
      if (chunk.length > 0) lastByte = chunk[chunk.length - 1] as number;
      position = end;
      if (position >= maxBytes) break;
    }
    complete = position < maxBytes;
  } catch (err) {
    throw new Error(`${log.file} could not be read${log.gzip ? ' as gzip' : ''}: ${errorMessage(err)}`, { cause: err });
  } finally {
    source.destroy();
    stream.destroy();
  }
  const totalLines = position === 0 ? 0 : newlines + (lastByte === 0x0a ? 0 : 1);
  // Offsets at or past the end of a complete log are on its last line.
  if (complete) while (k < wanted.length) lineAt.set(wanted[k++] as number, Math.max(1, totalLines));
  return { lineAt, tails: tails.map((t) => t.value()), ...(complete ? { totalLines } : {}), bytes: position };
}

function textLines(buf: Buffer): string[] {
  const lines = buf.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => maskSecrets(cleanLine(l)));
}

/**
 * Adds each failing step's own log lines and text from `log-index` (or the old `<id>.log`),
 * reading `log` or `log.gz` in one pass (bounded memory, up to LINE_SCAN_MAX_BYTES). Returns the
 * log's line count when the pass read all of it (for the tail's start line).
 */
export async function attachStepLogs(buildDir: string, steps: (FailingStep & { nodeId: string })[]): Promise<{ totalLines?: number }> {
  const log = await findBuildLog(buildDir);
  let index: Map<string, [number, number][]> | null = null;
  if (log !== null) {
    try {
      // The last range runs to the end of the log: its size for `log`, found by the pass for `log.gz`.
      const size = log.gzip ? Infinity : (await stat(log.file)).size;
      index = parseLogIndex(await readTextFile(path.join(buildDir, 'log-index')), size);
    } catch {
      index = null;
    }
  }
  const ranges = steps.map((step) => index?.get(step.nodeId) ?? []);
  const withRanges = ranges.map((r, s) => (r.length > 0 ? s : -1)).filter((s) => s >= 0);
  let totalLines: number | undefined;
  if (log !== null && withRanges.length > 0) {
    // Each step's first byte, and its last one (the final newline of its last range).
    const firstOf = (s: number): number => (ranges[s]?.[0] as [number, number])[0];
    const lastOf = (s: number): number => {
      const r = ranges[s] as [number, number][];
      return Math.max(firstOf(s), (r[r.length - 1] as [number, number])[1] - 1);
    };
    try {
      const scan = await scanLog(log, withRanges.flatMap((s) => [firstOf(s), lastOf(s)]), withRanges.map((s) => ranges[s] ?? []));
      totalLines = scan.totalLines;
      withRanges.forEach((s, w) => {
        const step = steps[s] as FailingStep;
        const lines = textLines(scan.tails[w] ?? Buffer.alloc(0));
        if (lines.length > 0) step.log = lines.slice(-STEP_LOG_LINES).join('\n');
        const a = scan.lineAt.get(firstOf(s));
        const b = scan.lineAt.get(lastOf(s));
        if (a !== undefined && b !== undefined) step.logLines = [a, b];
      });
    } catch {
      /* an unreadable log: the steps keep their errors, without lines */
    }
  }
  // Before log-index (2017): the node's output in `<id>.log`, also copied into `log`.
  for (const [s, step] of steps.entries()) {
    if ((ranges[s]?.length ?? 0) > 0) continue;
    try {
      const own = textLines(Buffer.from(await readTextFile(path.join(buildDir, `${step.nodeId}.log`))));
      if (own.length > 0) step.log = own.slice(-STEP_LOG_LINES).join('\n');
    } catch {
      /* no output of its own */
    }
  }
  return totalLines !== undefined ? { totalLines } : {};
}

/** `buildDetails.failingSteps` of a pipeline build (empty when nothing failed). */
export type { FailingStep };

export async function readFailingSteps(buildDir: string, build: XmlElement): Promise<FailingStep[]> {
  const storageDir = childText(child(build, 'execution'), 'storageDir');
  const nodes = await readFlowNodes(buildDir, storageDir);
  if (!nodes) return [];
  const steps = failingStepsOf(nodes);
  await attachStepLogs(buildDir, steps);
  return steps;
}

/** The failing steps and, when the log was read to its end for them, its line count. */
export async function readFailingStepsAndLines(buildDir: string, build: XmlElement): Promise<{ steps: FailingStep[]; totalLines?: number }> {
  const storageDir = childText(child(build, 'execution'), 'storageDir');
  const nodes = await readFlowNodes(buildDir, storageDir);
  if (!nodes) return { steps: [] };
  const steps = failingStepsOf(nodes);
  return { steps, ...(await attachStepLogs(buildDir, steps)) };
}
