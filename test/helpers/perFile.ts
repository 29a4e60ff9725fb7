/**
 * Runs in every test file (jest.config.js `setupFilesAfterEnv`). Jest loads our modules afresh
 * for each test file but keeps the process (a worker runs dozens of files): state a module
 * leaves in the process outlives its file. On Node 20 each AsyncLocalStorage that was used stays
 * in a process-wide list visited at the creation of every promise and async resource; the
 * request-log store of http/request.ts is used by every file that serves a request, so without
 * this the 40th file of a worker paid for 39 stores on every `await` (docs/notes/house.md,
 * "`npm test` time").
 */
import { stopRequestLogs } from '../../http/request.js';

afterAll(() => {
  stopRequestLogs();
});
