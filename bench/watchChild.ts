/**
 * The watcher alone in its own process, for `npm run bench -- watch` (bench/watch.ts drives
 * it over IPC): the real detector, store, queue and context builder; the backend replaced by
 * instant stand-in calls, so what is measured is the watcher's own cost, not the answers'.
 */
import fs from 'node:fs';
import pino from 'pino';
import type { BackendCalls } from '../controller/watch/backend.js';
import { Watcher } from '../controller/watch/index.js';
import type { QaPair } from '../protocol/types.js';

const [home, dataDir, concurrency, rescanSeconds, events] = process.argv.slice(2);
if (!home || !dataDir) throw new Error('usage: watchChild.ts HOME DATA_DIR CONCURRENCY RESCAN_SECONDS EVENTS(on|off)');

/** CPU time of this process in ms (user + system). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Resident memory now and at its peak (VmHWM), in MB. */
function memory(): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

let nextChat = 1;
const calls: BackendCalls = {
  createChat: async (user, title) => ({ id: nextChat++, user_id: user, title, created_at: '', updated_at: '' }),
  uploadContext: async (_user, _chatId, ciContext) => ciContext,
  findChat: async () => null,
  ask: async () => undefined,
  newestPair: async (_user, chatId): Promise<QaPair> => ({
    id: chatId,
    qa_pair_id: chatId,
    chat_id: chatId,
    created_at: '',
    question: { id: chatId, content: 'Why did the build fail?', created_at: '' },
    answer: {
      id: chatId,
      content: '**The test OrderTotalsTest failed** [L6-L7]: expected 90.0 but was 99.0.',
      status: 'complete',
      sources: [{ kind: 'log', start_line: 5, end_line: 8 }],
      created_at: '',
    },
  }),
};

const logger = pino({ level: 'warn' }, pino.destination(2));
const baseline = memory();
const watcher = new Watcher({
  watch: { jobs: [], concurrency: Number(concurrency ?? 2), rescanSeconds: Number(rescanSeconds ?? 60) },
  jenkinsHome: home,
  dataDir,
  auth: { mode: 'none', user: 'local' },
  backendUrl: 'http://127.0.0.1:9',
  mintJwt: async () => 'unused',
  logger,
  calls,
  fsEvents: events !== 'off',
});

type Command = { cmd: 'start' } | { cmd: 'sample' } | { cmd: 'rescan' } | { cmd: 'stop' };

process.on('message', (message: Command) => {
  void (async () => {
    switch (message.cmd) {
      case 'start': {
        const cpu0 = cpuMs();
        const t0 = performance.now();
        await watcher.start();
        process.send?.({
          started: true,
          ms: performance.now() - t0,
          cpuMs: cpuMs() - cpu0,
          jobs: watcher.detector.jobCount,
          watchers: watcher.detector.stats.watchers,
          baseline,
          ...memory(),
        });
        break;
      }
      case 'sample':
        process.send?.({ cpuMs: cpuMs(), at: performance.now(), ...memory(), ...watcher.load, failures: watcher.store.work.failures.length, events: watcher.detector.stats.events });
        break;
      case 'rescan': {
        const cpu0 = cpuMs();
        const t0 = performance.now();
        await watcher.detector.rescan();
        process.send?.({ rescanMs: performance.now() - t0, cpuMs: cpuMs() - cpu0 });
        break;
      }
      case 'stop':
        await watcher.close();
        process.exit(0);
    }
  })();
});
process.send?.({ ready: true });
