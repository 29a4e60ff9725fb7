/**
 * A raw log upload whose input pauses longer than the servers' idle bound (a slow producer piped
 * into `cichat ask`): the CLI's gzip body keeps the connection alive through the pause, and an
 * upload that is cut all the same says so (not "cannot reach the controller"). A real backend
 * and a real controller with a 2 s idle bound; the CLI's client sends a keep-alive after 200 ms.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { CichatClient, LogBody } from '../cli/client.js';
import { UserError } from '../cli/errors.js';
import { startController, type RunningController } from '../controller/app.js';
import { loadControllerConfig } from '../controller/config.js';
import type { ServerTimeouts } from '../http/server.js';
import { startTestBackend, type TestBackend } from './helpers/backend.js';
import { sqlite } from './helpers/databases.js';

const SECRET = randomBytes(32).toString('hex');
/** Short bounds (production: 30 s idle): a pause of PAUSE_MS is longer than the idle bound. */
const TIMEOUTS: ServerTimeouts = { headersMs: 2000, requestMs: 60_000, keepAliveMs: 2000, idleMs: 2000 };
/** Margins for a loaded machine: a keep-alive timer may fire late by most of the idle bound. */
const PAUSE_MS = 4000;
const KEEPALIVE_MS = 200;

let dir: string;
let backend: TestBackend;
let controller: RunningController;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-slow-producer-'));
  backend = await startTestBackend(sqlite, { secret: SECRET, serverTimeouts: TIMEOUTS });
  const loaded = loadControllerConfig({ CONTROLLER_PORT: '0', DATA_DIR: path.join(dir, 'controller'), BACKEND_URL: backend.url, JWT_SECRET: SECRET });
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  controller = await startController(loaded.config, { logger: pino({ level: 'silent' }), serverTimeouts: TIMEOUTS });
});

afterAll(async () => {
  await controller.close(0);
  await backend.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A log written in three parts with a silence of PAUSE_MS after the first and the second. */
function slowLog(lines: string[]): LogBody {
  const third = Math.ceil(lines.length / 3);
  return new LogBody(
    (async function* () {
      for (let i = 0; i < 3; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS).unref());
        yield Buffer.from(lines.slice(i * third, (i + 1) * third).map((l) => `${l}\n`).join(''));
      }
    })(),
  );
}

const lines = Array.from({ length: 600 }, (_, i) => (i === 550 ? 'ERROR: compilation failed in module 550' : `[INFO] compiling module ${i} of the build`));

async function newChat(client: CichatClient): Promise<number> {
  return (await client.createChat('slow producer')).id;
}

it('a gzip upload stays open while its input is silent longer than the idle bound, and arrives whole', async () => {
  const client = new CichatClient({ baseUrl: controller.url });
  const chat = await newChat(client);
  const result = await client.uploadLog(chat, slowLog(lines), {}, { gzip: true, keepAliveMs: KEEPALIVE_MS });
  expect(result.success).toBe(true);
  expect(result.log_lines).toBe(lines.length);
  expect((await client.lastUpload(chat)).last_upload_at).not.toBeNull();
}, 30_000);

it('an upload cut while its input was silent says so, not that the controller cannot be reached', async () => {
  const client = new CichatClient({ baseUrl: controller.url });
  const chat = await newChat(client);
  // Uncompressed (CICHAT_UPLOAD_GZIP=0): nothing can keep the body alive, so the controller cuts it.
  const error = await client.uploadLog(chat, slowLog(lines), {}, { gzip: false, keepAliveMs: KEEPALIVE_MS }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(UserError);
  const { message, hint } = error as UserError;
  expect(message).not.toMatch(/cannot reach/i);
  expect(message).toMatch(/closed the upload: the log sent nothing for the last \d+(\.\d)? s \(after \d+ KB\).*nothing was stored/);
  expect(hint).toMatch(/save it to a file first/);
  expect((await client.lastUpload(chat)).last_upload_at).toBeNull();
}, 30_000);
