/**
 * `askLocal` with a checkout: the log's failure's source lines read from a temporary directory of
 * `files` (path -> content) as `cichat ask --workspace DIR` reads and sends them (the user-session
 * answer tests, ux5 and ux6).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { snippetsFromDir } from '../../cli/snippets.js';
import type { CiContextUpload } from '../../protocol/schemas.js';
import { analyzedChatContext } from '../answerFixtures.js';
import { askLocal } from './askLocal.js';

export async function askWithCheckout(question: string, text: string, files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cichat-checkout-'));
  try {
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), content);
    }
    const upload = { buildDetails: { result: 'FAILURE', consoleLog: text }, workspaceSnippets: await snippetsFromDir(dir, text) } as CiContextUpload;
    return await askLocal(question, analyzedChatContext(upload, text));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
