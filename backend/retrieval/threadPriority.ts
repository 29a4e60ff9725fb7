import fs from 'node:fs';
import os from 'node:os';

/**
 * The nice value of the backend's background threads (the ingest and HNSW index workers): an
 * upload's analysis, embedding and row writes take most of a core for as long as the upload
 * lasts, and at the same priority as the event loop they make every request wait for a core
 * behind them (issue 28: the chat list's p99 during a 500 MB upload). At nice 10 the event loop
 * (nice 0) is scheduled first whenever it has work; the workers still get every core it leaves idle.
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the scheduling priority of the calling thread only (Linux: a thread's nice value is its
 * own; `setpriority` given a thread id changes that thread). Never raises it. Returns whether it
 * was set; elsewhere (no /proc/thread-self) it does nothing.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): boolean {
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
