import Router from '@koa/router';
import Koa from 'koa';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { registerWorkspaceRoutes } from '../controller/workspace/routes.js';
import { workspaceTree } from '../jenkins/workspace/tree.js';
import type { WorkspaceTreeNode } from '../jenkins/workspace/types.js';
import { flag, fmt, summarize } from './lib.js';

/**
 * `npm run bench -- workspace [--dir D] [--runs 7] [--requests 400] [--json]`: builds once (and
 * reuses) a JENKINS_HOME whose classic job `big` has a workspace of 100k files, plus a 200k-file
 * node_modules and a .git; then, in the same run, times the depth-4 tree (default node cap, and
 * uncapped) against `find` over the same entries (same depth, same pruned folders, sizes
 * printed), and the p50 of GET /workspaceFile over HTTP for a 60 KB file and a 1 GiB one.
 */
export async function run(args: string[]): Promise<void> {
  const root = flag(args, 'dir') ?? path.join(os.tmpdir(), 'cichat-bench-workspace');
  const runs = Number(flag(args, 'runs') ?? 7);
  const requests = Number(flag(args, 'requests') ?? 400);
  const json = args.includes('--json');
  const home = path.join(root, 'home');
  const ws = path.join(home, 'workspace', 'big');
  await buildOnce(root, home, ws);

  const findArgs = [ws, '-mindepth', '1', '-maxdepth', '4', '(', '-name', '.git', '-o', '-name', 'node_modules', '-o', '-name', 'target', ')', '-prune', '-o', '-printf', '%y %s %P\\n'];
  const quoted = findArgs.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const capped = await timePair(
    runs,
    () => workspaceTree(ws, { depth: 4 }),
    (tree) => shell(`find ${quoted} | head -n ${countNodes(tree)}`),
  );
  const uncapped = await timePair(runs, () => workspaceTree(ws, { depth: 4, maxNodes: Infinity }), () => shell(`find ${quoted}`));
  const findAll = { median: uncapped.otherMedian, result: uncapped.other };
  const findCapped = { median: capped.otherMedian };
  const findLines = findAll.result.split('\n').filter((l) => l !== '').length;

  const http50 = await fileRequests(home, requests);

  const figures = {
    workspace: { dir: ws, listedEntriesUncapped: countNodes(uncapped.result), findLines, listedEntriesCapped: countNodes(capped.result) },
    treeDefaultMs: capped.median,
    findSameCountMs: findCapped.median,
    ratioDefault: capped.median / findCapped.median,
    treeUncappedMs: uncapped.median,
    findAllMs: findAll.median,
    ratioUncapped: uncapped.median / findAll.median,
    file60kP50Ms: http50.small.p50,
    file1gP50Ms: http50.huge.p50,
    treeHttpP50Ms: http50.tree.p50,
    goals: { treeMs: 300, ratio: 2, fileP50Ms: 5 },
  };
  if (json) {
    console.log(JSON.stringify(figures, null, 2));
    return;
  }
  console.log(`workspace ${ws}`);
  console.log(`  entries within depth 4 (excluded folders pruned): tree ${figures.workspace.listedEntriesUncapped}, find ${findLines}`);
  console.log(`depth-4 tree, default cap (${figures.workspace.listedEntriesCapped} nodes): ${fmt(capped.median)} median of ${runs}; find over as many entries ${fmt(findCapped.median)}; ratio ${figures.ratioDefault.toFixed(2)}x`);
  console.log(`depth-4 tree, uncapped: ${fmt(uncapped.median)}; find over the same entries ${fmt(findAll.median)}; ratio ${figures.ratioUncapped.toFixed(2)}x`);
  console.log(`GET /workspaceFile 60 KB: p50 ${fmt(http50.small.p50)} p99 ${fmt(http50.small.p99)} (${requests} sequential requests)`);
  console.log(`GET /workspaceFile 1 GiB: p50 ${fmt(http50.huge.p50)} p99 ${fmt(http50.huge.p99)}`);
  console.log(`GET /workspaceTree (default): p50 ${fmt(http50.tree.p50)}`);
  console.log(`goals: tree <= 300 ms and <= 2x find; file p50 <= 5 ms`);
}

function countNodes(node: WorkspaceTreeNode): number {
  let n = 0;
  const stack = [...(node.children ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    n++;
    if (next.children) stack.push(...next.children);
  }
  return n;
}

/**
 * Times `ours` and `theirs` alternately (after one warm-up each, which fills the page and dentry
 * caches as an earlier request would), so that load from other processes hits both alike.
 */
async function timePair<T>(
  runs: number,
  ours: () => Promise<T>,
  theirs: (result: T) => Promise<string>,
): Promise<{ median: number; result: T; otherMedian: number; other: string }> {
  let result = await ours();
  let other = await theirs(result);
  const mine: number[] = [];
  const them: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now();
    result = await ours();
    mine.push(performance.now() - t0);
    t0 = performance.now();
    other = await theirs(result);
    them.push(performance.now() - t0);
  }
  return { median: summarize(mine).p50, result, otherMedian: summarize(them).p50, other };
}

function shell(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', command], { maxBuffer: 256 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout);
    });
  });
}

/** Creates the home once; a `.complete` marker makes later runs reuse it. */
async function buildOnce(root: string, home: string, ws: string): Promise<void> {
  const done = path.join(root, '.complete');
  if (fs.existsSync(done)) return;
  fs.rmSync(root, { recursive: true, force: true });
  console.error(`building the benchmark workspace in ${root} (once; about 300k files)...`);
  const write = (rel: string, content: string | Buffer): void => fs.writeFileSync(path.join(ws, rel), content);
  const mkdir = (rel: string): void => {
    fs.mkdirSync(path.join(ws, rel), { recursive: true });
  };
  fs.mkdirSync(path.join(home, 'jobs', 'big', 'builds', '1'), { recursive: true });
  fs.writeFileSync(path.join(home, 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<hudson>\n  <workspaceDir>${JENKINS_HOME}/workspace/${ITEM_FULL_NAME}</workspaceDir>\n</hudson>\n");
  fs.writeFileSync(path.join(home, 'jobs', 'big', 'config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<project/>\n");
  fs.writeFileSync(
    path.join(home, 'jobs', 'big', 'builds', '1', 'build.xml'),
    `<?xml version='1.1' encoding='UTF-8'?>\n<build>\n  <result>SUCCESS</result>\n  <builtOn></builtOn>\n  <workspace>${ws}</workspace>\n</build>\n`,
  );
  // 100k sources: 20 modules x 50 packages x 100 files, at depth 3.
  for (let m = 0; m < 20; m++) {
    for (let p = 0; p < 50; p++) {
      const dir = `mod${String(m).padStart(2, '0')}/src/pkg${String(p).padStart(2, '0')}`;
      mkdir(dir);
      for (let f = 0; f < 100; f++) write(`${dir}/File${String(f).padStart(3, '0')}.java`, `class File${f} {}\n`.repeat(1 + (f % 7)));
    }
    mkdir(`mod${String(m).padStart(2, '0')}/target/classes`);
    write(`mod${String(m).padStart(2, '0')}/target/classes/Main.class`, 'x');
  }
  // 200k files of dependencies and a .git: never walked.
  for (let d = 0; d < 2000; d++) {
    const dir = `node_modules/dep${d}/lib`;
    mkdir(dir);
    for (let f = 0; f < 100; f++) write(`${dir}/f${f}.js`, 'module.exports = 1;\n');
  }
  for (let o = 0; o < 256; o++) {
    const dir = `.git/objects/${o.toString(16).padStart(2, '0')}`;
    mkdir(dir);
    for (let f = 0; f < 40; f++) write(`${dir}/${f.toString(16).padStart(38, '0')}`, 'blob');
  }
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write('report-60k.txt', 'INFO some build output line with a few words in it\n'.repeat(1200));
  const huge = path.join(ws, 'huge.log');
  fs.writeFileSync(huge, 'a build log line that goes on for a while\n'.repeat(10_000));
  fs.truncateSync(huge, 1024 ** 3);
  fs.writeFileSync(done, new Date().toISOString());
}

async function fileRequests(home: string, requests: number): Promise<Record<'small' | 'huge' | 'tree', ReturnType<typeof summarize>>> {
  const app = new Koa();
  const router = new Router({ prefix: '/chatbot-api' });
  registerWorkspaceRoutes(router, { jenkinsHome: home, pathMap: [] });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chatbot-api`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const timed = async (url: string, n: number): Promise<ReturnType<typeof summarize>> => {
    const samples: number[] = [];
    for (let i = 0; i < n + 20; i++) {
      const t0 = performance.now();
      const status = await get(agent, url);
      if (status !== 200) throw new Error(`${url}: HTTP ${status}`);
      if (i >= 20) samples.push(performance.now() - t0);
    }
    return summarize(samples);
  };
  try {
    const file = (p: string): string => `${base}/workspaceFile?jobName=big&buildNumber=1&workspaceId=ws-default&filePath=${p}`;
    return {
      small: await timed(file('report-60k.txt'), requests),
      huge: await timed(file('huge.log'), requests),
      tree: await timed(`${base}/workspaceTree?jobName=big&buildNumber=1`, 20),
    };
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}
