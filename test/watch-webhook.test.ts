/**
 * The webhook outbox across a restart, against a local receiver: a message left waiting is sent
 * by the next run; one that was being sent when the process died is not sent again.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { WatchStore } from '../controller/watch/store.js';
import { WebhookSender } from '../controller/watch/webhook.js';
import { until } from './helpers/poll.js';

let tmp: string;
let server: http.Server;
let url: string;
const posts: string[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-webhook-'));
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      posts.push((JSON.parse(body) as { text: string }).text);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a waiting message is sent by the next run; one cut in flight is not sent twice', async () => {
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
  const first = new WatchStore(tmp, logger);
  first.work.outbox.push({ key: 'a#1', body: { text: 'waiting' }, attempts: 1, notBefore: 0 });
  first.work.outbox.push({ key: 'b#1', body: { text: 'cut' }, attempts: 0, notBefore: 0, inFlight: true });
  first.saveWorkNow();

  const store = new WatchStore(tmp, logger);
  const sender = new WebhookSender(url, store, logger);
  sender.start();
  await until('the waiting message posted', () => (posts.length > 0 ? true : undefined));
  await until('the outbox empty', () => (store.work.outbox.length === 0 ? true : undefined));
  await sender.close();
  expect(posts).toEqual(['waiting']);
  expect(warnings.join('')).toContain('not sent again');
  expect(JSON.parse(fs.readFileSync(path.join(tmp, 'watch', 'work.json'), 'utf8')).outbox).toEqual([]);
});
