/**
 * The bounded store for huge logs (issue 28 point 3): a log over the keep limits is accepted
 * whole, but the context holds only its first and last parts, the failing steps' lines and the
 * analyzer's ranked excerpts; the rest is counted as line ranges, and the answers (offline and
 * the openai prompt) say which lines were not kept. Small limits here stand for the MiB ones.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Chat } from '../protocol/types.js';
import { currentContext } from '../backend/store/contexts.js';
import type { ContextService } from '../backend/services/context.js';
import { LogIngest, type ChunkRow, type LogKeepLimits } from '../backend/retrieval/logIngest.js';
import { buildPrompt } from '../backend/answer/prompt.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';
import { collectEvents, textOf } from './helpers/sse.js';

const KEEP: LogKeepLimits = { headChars: 64 * 1024, tailChars: 64 * 1024, middleChars: 16 * 1024 };

/** 60 000 lines (about 3 MB): the compile error in the middle (line ~30 000), the end of the build at the end. */
function hugeLog(): { log: string; errorLine: number; lines: number } {
  const out = ['Started by user admin', '[Pipeline] sh', '+ mvn -B verify'];
  for (let i = 0; i < 30_000; i++) out.push(`[INFO] Compiling module-${i % 31} file Source${i}.java to target/classes`);
  out.push('[ERROR] COMPILATION ERROR :', '[ERROR] /src/main/java/com/acme/UserService.java:[42,17] cannot find symbol', '[ERROR]   symbol:   method findByEmail(java.lang.String)');
  const errorLine = out.length - 1;
  for (let i = 0; i < 30_000; i++) out.push(`[INFO] Downloading artifact-${i % 97} from central (${i} KB)`);
  out.push('ERROR: script returned exit code 1', 'Finished: FAILURE');
  return { log: `${out.join('\n')}\n`, errorLine, lines: out.length };
}

let backend: TestBackend;
let dataDir: string;
let service: ContextService;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bounded-'));
  backend = await startTestBackend(sqlite, { dataDir, context: { logKeep: KEEP } });
  service = backend.context;
});
afterAll(async () => {
  await backend.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const user = 'bounded-user';
async function newChat(): Promise<number> {
  return ((await (await backend.request(user, 'POST', '/chats/', {})).json()) as Chat).id;
}

test('a log over the limits is accepted, kept bounded (head, tail, the ranked excerpt), and the answer says which lines were not kept', async () => {
  const { log, errorLine, lines } = hugeLog();
  const chat = await newChat();
  const res = await fetch(`${backend.url}/context/${chat}/log`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'text/plain' },
    body: log,
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { log_lines: number }).log_lines).toBe(lines);

  const stored = (await currentContext(backend.db, chat))!;
  expect(stored.logLineCount).toBe(lines);
  const notKept = stored.logNotKept!;
  expect(notKept.totalLines).toBe(lines);
  // Head and tail are about 64 KiB each of ~50-character lines; the middle's excerpt is kept.
  expect(notKept.lines).toBeGreaterThan(lines - 4000);
  expect(notKept.ranges.length).toBeGreaterThanOrEqual(2); // split by the kept excerpt
  for (const [a, b] of notKept.ranges) expect(errorLine < a || errorLine > b).toBe(true);
  // What is stored is bounded: the chunks' text is about head + tail + middle, not the log.
  const stats = (await backend.db('context_chunks').where({ context_id: stored.id }).sum({ chars: backend.db.raw('length(text)') }).first()) as { chars: number };
  expect(Number(stats.chars)).toBeLessThan(((KEEP.headChars + KEEP.tailChars + KEEP.middleChars) * 3) / 2);
  expect(Number(stats.chars)).toBeLessThan(log.length / 10);

  // The log viewer gets the excerpt's lines and the ranges it does not hold.
  const view = (await (await backend.request(user, 'GET', `/context/${chat}/log?from=${errorLine - 5}&to=${errorLine + 5}`)).json()) as { lines: { n: number; text: string }[]; not_kept?: [number, number][] };
  expect(view.lines.find((l) => l.n === errorLine)?.text).toContain('cannot find symbol');
  const middle = (await (await backend.request(user, 'GET', `/context/${chat}/log?from=10000&to=10010`)).json()) as { lines: unknown[]; not_kept?: [number, number][] };
  expect(middle.lines).toEqual([]);
  expect(middle.not_kept).toEqual([[10000, 10010]]);

  const answer = await backend.request(user, 'POST', '/messages/send', { chat_id: chat, content: 'why did the build fail?' });
  const text = textOf(await collectEvents(answer));
  expect(text).toContain('cannot find symbol');
  const first = notKept.ranges[0]!;
  expect(text).toContain(`Lines ${first[0].toLocaleString('en-US')}-${first[1].toLocaleString('en-US')}`);
  expect(text).toContain(`of ${lines.toLocaleString('en-US')} were not kept`);

  // Asked for lines by number: the kept head and the kept excerpt are quoted from the store (the
  // answers hold only the tail in memory); a line in a range not kept is said to be so.
  const ask = async (content: string): Promise<string> => textOf(await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat, content })));
  expect(await ask('what does line 3 say?')).toContain('Line 3 [L3-L3] reads: `+ mvn -B verify`');
  expect(await ask(`show lines ${errorLine - 1}-${errorLine}`)).toContain('cannot find symbol');
  const gone = await ask('what does line 10000 say?');
  expect(gone).toContain('Line 10000 is not in this chat\'s copy of the log.');
  expect(gone).toContain(`of ${lines.toLocaleString('en-US')} were not kept`);

  // The openai engine's prompt carries the same sentence beside the facts.
  const context = await service.loadContext(chat);
  const prompt = buildPrompt({ question: 'why did the build fail?', history: [], context, passages: [], contextTokens: 8000 });
  expect(prompt.messages.map((m) => m.content).join('\n')).toContain(`of ${lines.toLocaleString('en-US')} were not kept`);
});

test('a log within the limits is kept whole and its answers say nothing about it', async () => {
  const chat = await newChat();
  const log = `${Array.from({ length: 500 }, (_, i) => `[INFO] step ${i}`).join('\n')}\nERROR: boom\nFinished: FAILURE\n`;
  const res = await fetch(`${backend.url}/context/${chat}/log`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await backend.token(user)}`, 'content-type': 'text/plain' },
    body: log,
  });
  expect(res.status).toBe(200);
  expect((await currentContext(backend.db, chat))!.logNotKept).toBeNull();
  const text = textOf(await collectEvents(await backend.request(user, 'POST', '/messages/send', { chat_id: chat, content: 'why did the build fail?' })));
  expect(text).not.toContain('were not kept');
});

test('LogIngest: bounded or not, the same excerpts; the failing steps\' lines are kept from the middle', () => {
  const { log, lines } = hugeLog();
  const run = (keep?: LogKeepLimits, focus?: [number, number][]) => {
    const rows: ChunkRow[] = [];
    const ingest = new LogIngest({ storedMaxChars: 1024, tailLines: 10, lineMaxChars: 2000, ...(keep ? { keep } : {}), ...(focus ? { focus } : {}) }, (r) => rows.push(...r));
    ingest.pushText(log);
    return { summary: ingest.end(), rows };
  };
  const whole = run();
  const bounded = run(KEEP);
  expect(bounded.summary.excerpts.map((e) => [e.start_line, e.end_line])).toEqual(whole.summary.excerpts.map((e) => [e.start_line, e.end_line]));
  expect(whole.summary.notKept).toBeUndefined();
  expect(bounded.rows.length).toBeLessThan(whole.rows.length / 10);
  // Chunks are numbered with the log's own lines, and seq follows the line order.
  expect(bounded.rows.map((r) => r.start_line)).toEqual([...bounded.rows.map((r) => r.start_line)].sort((a, b) => a - b));
  expect(bounded.rows.at(-1)?.end_line).toBe(lines);
  // A failing step's lines (here 20 000-20 010) are kept from the middle too.
  const focused = run(KEEP, [[20_000, 20_010]]);
  expect(focused.rows.some((r) => r.start_line <= 20_000 && r.end_line >= 20_010)).toBe(true);
  for (const [a, b] of focused.summary.notKept!.ranges) expect(20_005 < a || 20_005 > b).toBe(true);
});
