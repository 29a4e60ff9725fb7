import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { collectSnippets } from '../jenkins/workspace/snippets.js';
import { flag, fmt, summarize } from './lib.js';

/**
 * `npm run bench -- snippets [--files 50000] [--runs 7] [--dir D] [--json]`: the cost of the
 * workspace snippets of one upload (issue 17) on a workspace of `--files` source files (built
 * once, reused): a log naming files by their full path (direct reads only), and a log naming them
 * by JVM stack frames and a missing file (the bounded suffix search indexes the workspace).
 */
export async function run(args: string[]): Promise<void> {
  const files = Number(flag(args, 'files') ?? 50_000);
  const runs = Number(flag(args, 'runs') ?? 7);
  const json = args.includes('--json');
  const root = flag(args, 'dir') ?? path.join(os.tmpdir(), `cichat-bench-snippets-${files}`);
  const ws = path.join(root, 'ws');
  if (!fs.existsSync(path.join(root, 'done'))) {
    fs.rmSync(root, { recursive: true, force: true });
    const body = Array.from({ length: 120 }, (_, i) => `    int field${i} = ${i}; // filler line of a class`).join('\n');
    for (let i = 0; i < files; i++) {
      const dir = path.join(ws, 'src', 'main', 'java', 'com', 'acme', `m${i % 50}`, `p${Math.floor(i / 50) % 40}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `C${i}.java`), `package x;\nclass C${i} {\n${body}\n}\n`);
    }
    fs.writeFileSync(path.join(root, 'done'), '');
  }
  const named = (i: number): string => `com/acme/m${i % 50}/p${Math.floor(i / 50) % 40}/C${i}.java`;
  const picks = [7, Math.floor(files / 3), Math.floor(files / 2), files - 1];
  const directLog = ['[ERROR] COMPILATION ERROR : ', ...picks.map((i) => `[ERROR] ${ws}/src/main/java/${named(i)}:[60,5] cannot find symbol`), '[INFO] BUILD FAILURE'].join('\n');
  const frameLog = [
    'org.opentest4j.AssertionFailedError: expected: <1> but was: <2>',
    ...picks.map((i) => `\tat com.acme.m${i % 50}.p${Math.floor(i / 50) % 40}.C${i}.run(C${i}.java:60)`),
    '\tat com.acme.Missing.run(Missing.java:3)',
    '[ERROR] Tests run: 1, Failures: 1',
  ].join('\n');
  const workspaces = [{ workspaceId: 'ws-default', dir: ws }];
  const time = async (log: string) => {
    const samples: number[] = [];
    let count = 0;
    for (let r = 0; r < runs; r++) {
      const t = process.hrtime.bigint();
      const { snippets } = await collectSnippets({ log, workspaces });
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
      count = snippets.length;
    }
    return { ...summarize(samples.sort((a, b) => a - b)), snippets: count };
  };
  const direct = await time(directLog);
  const frames = await time(frameLog);
  const result = { files, runs, loadavg: os.loadavg()[0], direct, frames };
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`workspace of ${files} files, ${runs} runs, load average ${os.loadavg()[0]?.toFixed(1)}`);
  console.log(`full paths (direct reads), ${direct.snippets} snippets: p50 ${fmt(direct.p50)}, max ${fmt(direct.max)}`);
  console.log(`JVM frames + a missing file (index of the workspace), ${frames.snippets} snippets: p50 ${fmt(frames.p50)}, max ${fmt(frames.max)}`);
}
