import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { StreamEvent } from '../../protocol/types.js';
import { migrateLatest, openDb, type Db } from '../db.js';
import { Lifecycle } from '../lifecycle.js';
import { createChat } from '../store/chats.js';
import { beginAnswer, listPairs } from '../store/pairs.js';
import type { AnswerEngine } from '../answer/engine.js';
import { streamAnswer, type AnswerSink } from './answer.js';

/** A sink that keeps the events (no HTTP at all: the answer job does not need Koa). */
function memorySink(): AnswerSink & { events: StreamEvent[]; ended: Promise<void>; abort: AbortController } {
  const abort = new AbortController();
  let resolve!: () => void;
  const ended = new Promise<void>((r) => (resolve = r));
  const events: StreamEvent[] = [];
  return { events, ended, abort, signal: abort.signal, send: (e) => void events.push(e), end: () => resolve() };
}

const engineOf = (pieces: string[], gate?: Promise<void>): AnswerEngine => ({
  name: 'test',
  async answer() {
    return {
      sources: [{ kind: 'log', start_line: 3, end_line: 4 }],
      pieces: (async function* () {
        for (const p of pieces) {
          if (gate) await gate;
          yield p;
        }
      })(),
    };
  },
});

let dir: string;
let db: Db;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-run-'));
  db = openDb(`sqlite:${path.join(dir, 'db.sqlite')}`);
  await migrateLatest(db);
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The pair and the lease, as the route takes them before the job (store/pairs.ts beginAnswer). */
async function begun(chatId: number, question: string, owner: string): Promise<number> {
  const b = await beginAnswer(db, { userId: 'u', chatId, question, leaseMs: 15_000, owner });
  expect(b.kind).toBe('started');
  return b.kind === 'started' ? b.pairId : -1;
}

async function run(engine: AnswerEngine, sink: ReturnType<typeof memorySink>) {
  const lifecycle = new Lifecycle('replica-a');
  const chat = await createChat(db, 'u', 'a chat');
  const pairId = await begun(chat.id, 'why?', lifecycle.replicaId);
  await streamAnswer(
    { db, log: pino({ level: 'silent' }), lifecycle, engine, loadContext: async () => null },
    { chatId: chat.id, question: 'why?', pairId, leaseMs: 15_000, owner: lifecycle.replicaId },
    () => sink,
  );
  await sink.ended;
  return { chat, lifecycle };
}

test('streams into any sink and stores the pair complete with its sources', async () => {
  const sink = memorySink();
  const { chat } = await run(engineOf(['It ', 'failed.']), sink);
  expect(sink.events.map((e) => e.event)).toEqual(['started', 'chunk', 'chunk', 'done']);
  const [pair] = (await listPairs(db, chat.id, 10, 0)).items;
  expect(pair?.answer).toMatchObject({ content: 'It failed.', status: 'complete', sources: [{ kind: 'log', start_line: 3, end_line: 4 }] });
  expect((await beginAnswer(db, { userId: 'u', chatId: chat.id, question: 'next', leaseMs: 15_000, owner: 'replica-b' })).kind).toBe('started');
});

test('a reader that goes away leaves the pair interrupted with the text sent so far', async () => {
  const sink = memorySink();
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const engine = engineOf(['first ', 'second'], gate);
  const chat = await createChat(db, 'u', 'b chat');
  const lifecycle = new Lifecycle('replica-a');
  const pairId = await begun(chat.id, 'q', lifecycle.replicaId);
  await streamAnswer({ db, log: pino({ level: 'silent' }), lifecycle, engine, loadContext: async () => null }, { chatId: chat.id, question: 'q', pairId, leaseMs: 15_000, owner: lifecycle.replicaId }, () => sink);
  sink.abort.abort(new Error('gone'));
  open();
  await sink.ended;
  const [pair] = (await listPairs(db, chat.id, 10, 0)).items;
  expect(pair?.answer).toMatchObject({ status: 'interrupted' });
  expect(sink.events.filter((e) => e.event === 'chunk').length).toBeLessThan(2);
  expect(sink.events.some((e) => e.event === 'done')).toBe(false);
});

test('`started` leaves before the context is loaded: the job waits a turn of the event loop first', async () => {
  // With a synchronous database driver, retrieval and composition would otherwise run in the
  // same turn as the route, before the response's first bytes reach the socket.
  const sink = memorySink();
  const chat = await createChat(db, 'u', 'c chat');
  const lifecycle = new Lifecycle('replica-a');
  const pairId = await begun(chat.id, 'q', lifecycle.replicaId);
  const order: string[] = [];
  const loadContext = async () => {
    order.push('loadContext');
    return null;
  };
  await streamAnswer({ db, log: pino({ level: 'silent' }), lifecycle, engine: engineOf(['x']), loadContext }, { chatId: chat.id, question: 'q', pairId, leaseMs: 15_000, owner: lifecycle.replicaId }, () => ({
    ...sink,
    send: (e: StreamEvent) => {
      order.push(e.event);
      sink.send(e);
    },
  }));
  // What the HTTP layer does once the route returns (microtasks and next ticks: Koa pipes the body).
  for (let i = 0; i < 50; i++) await Promise.resolve();
  await new Promise<void>((r) => process.nextTick(r));
  order.push('response written');
  await sink.ended;
  expect(order.slice(0, 3)).toEqual(['started', 'response written', 'loadContext']);
});
