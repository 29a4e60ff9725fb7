import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readTextFile } from '../xml.js';
import { WORKSPACE_ACTION_NAMES, asArray, childOf, parseXml, rootElement, textOf } from './xml.js';
import type { XmlValue } from './xml.js';

/** A workspace a `node` step allocated, as the build's flow graph recorded it. */
export interface RecordedWorkspace {
  flowNodeId: string;
  /** The agent's name; '' for the built-in node. */
  node: string;
  /** The path on that node, as Jenkins saw it. */
  path: string;
}

/** What the workspace reader needs from `build.xml`. */
export interface BuildRecord {
  /** `flow-build` (or the old `WorkflowRun`) for pipelines, `build` and friends for classic jobs. */
  rootName: string;
  pipeline: boolean;
  /** Pipeline: where the flow nodes are (`workflow` unless `<execution><storageDir>` says). */
  storageDir?: string;
  /** Classic: the workspace path recorded at the top level, and the node it was on. */
  workspace?: string;
  builtOn?: string;
  number?: string;
}

const PIPELINE_ROOTS = new Set(['flow-build', 'org.jenkinsci.plugins.workflow.job.WorkflowRun']);
const BULK_STORE = 'flowNodeStore.xml';
const FLOW_NODE_FILE = /^([0-9A-Za-z_-]+)\.xml$/;
/** A plain directory name: storageDir is joined to the build directory. */
const SAFE_DIR_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * A regular file's text; null when missing, unreadable or not a regular file (a FIFO left where
 * build.xml or a flow node file should be would block a plain read, and a thread-pool thread, for ever).
 */
export async function readText(file: string): Promise<string | null> {
  try {
    return await readTextFile(file);
  } catch {
    return null;
  }
}

/** Reads `build.xml`; null when it is missing or not XML. */
export async function readBuildRecord(buildDirectory: string): Promise<BuildRecord | null> {
  const text = await readText(path.join(buildDirectory, 'build.xml'));
  if (text === null) return null;
  const doc = parseXml(text);
  const root = doc && rootElement(doc);
  if (!root) return null;
  const record: BuildRecord = { rootName: root.name, pipeline: PIPELINE_ROOTS.has(root.name) };
  const storageDir = textOf(childOf(root.content, 'execution'), 'storageDir');
  if (storageDir && SAFE_DIR_NAME.test(storageDir) && storageDir !== '..' && storageDir !== '.') {
    record.storageDir = storageDir;
  }
  const workspace = textOf(root.content, 'workspace');
  if (workspace) record.workspace = workspace;
  const builtOn = textOf(root.content, 'builtOn');
  if (builtOn !== undefined) record.builtOn = builtOn;
  const number = textOf(root.content, 'number');
  if (number !== undefined) record.number = number;
  return record;
}

/** The WorkspaceActionImpl entries of one flow node (`<Tag>`: `<node>` and `<actions>`). */
function actionsOfTag(tag: XmlValue | undefined, fallbackId: string): RecordedWorkspace[] {
  const flowNodeId = textOf(childOf(tag, 'node'), 'id') || fallbackId;
  const actions = childOf(tag, 'actions');
  const found: RecordedWorkspace[] = [];
  for (const name of WORKSPACE_ACTION_NAMES) {
    for (const action of asArray(childOf(actions, name))) {
      const recordedPath = textOf(action, 'path');
      if (!recordedPath) continue;
      found.push({ flowNodeId, node: textOf(action, 'node') ?? '', path: recordedPath });
    }
  }
  return found;
}

function mentionsWorkspace(text: string): boolean {
  return text.includes('WorkspaceActionImpl');
}

/** Bulk storage: `<linked-hash-map><entry><string>id</string><Tag>...</Tag></entry>...`. */
function actionsOfBulkStore(text: string): RecordedWorkspace[] {
  if (!mentionsWorkspace(text)) return [];
  const doc = parseXml(text);
  const root = doc && rootElement(doc);
  if (!root) return [];
  const found: RecordedWorkspace[] = [];
  for (const entry of asArray(childOf(root.content, 'entry'))) {
    const id = textOf(entry, 'string') ?? '';
    found.push(...actionsOfTag(childOf(entry, 'Tag'), id));
  }
  return found;
}

/** Per-node storage: `<id>.xml` whose root is `<Tag>` (or the old long class name). */
function actionsOfNodeFile(text: string, id: string): RecordedWorkspace[] {
  if (!mentionsWorkspace(text)) return [];
  const doc = parseXml(text);
  const root = doc && rootElement(doc);
  return root ? actionsOfTag(root.content, id) : [];
}

async function actionsInStorage(storage: string): Promise<RecordedWorkspace[] | null> {
  let names: string[];
  try {
    names = await fs.readdir(storage);
  } catch {
    return null;
  }
  const found: RecordedWorkspace[] = [];
  for (const name of names) {
    if (name === BULK_STORE) {
      const text = await readText(path.join(storage, name));
      if (text !== null) found.push(...actionsOfBulkStore(text));
      continue;
    }
    const match = FLOW_NODE_FILE.exec(name);
    if (!match?.[1]) continue;
    const text = await readText(path.join(storage, name));
    if (text !== null) found.push(...actionsOfNodeFile(text, match[1]));
  }
  return found;
}

function byFlowNodeId(a: RecordedWorkspace, b: RecordedWorkspace): number {
  const na = Number(a.flowNodeId);
  const nb = Number(b.flowNodeId);
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.flowNodeId < b.flowNodeId ? -1 : a.flowNodeId > b.flowNodeId ? 1 : 0;
}

/**
 * Every workspace the build's `node` steps allocated, in flow node id order, from whichever of
 * the three storage generations the build uses: per-node `<storageDir>/<id>.xml`, or the bulk
 * `<storageDir>/flowNodeStore.xml`, where storageDir is `workflow`, or `workflow-completed` for
 * builds finished under workflow-cps 3806+ (build.xml names it). When the named directory is
 * missing (a copied or half-migrated home), the other generation's directory is read instead.
 */
export async function recordedWorkspaces(buildDirectory: string, record: BuildRecord | null): Promise<RecordedWorkspace[]> {
  const named = record?.storageDir ?? 'workflow';
  const candidates = [named, ...['workflow', 'workflow-completed'].filter((d) => d !== named)];
  for (const dir of candidates) {
    const found = await actionsInStorage(path.join(buildDirectory, dir));
    if (found !== null) return found.sort(byFlowNodeId);
  }
  return [];
}

/** True when the build directory holds flow node storage (a pipeline whose build.xml is unreadable). */
export async function hasFlowStorage(buildDirectory: string): Promise<boolean> {
  for (const dir of ['workflow', 'workflow-completed']) {
    try {
      if ((await fs.stat(path.join(buildDirectory, dir))).isDirectory()) return true;
    } catch {
      // not this one
    }
  }
  return false;
}
