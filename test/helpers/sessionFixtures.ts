/**
 * A user session's fixtures (test/fixtures/ux7, ux8: `<job>/fail.log` and `<job>/project/`): the log, the
 * checkout as `cichat ask --workspace DIR` reads it, an answer asked with both, and the check that its
 * citations quote the log's lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { askWithCheckout } from './askCheckout.js';
import { checkCitations } from './claimChecks.js';

export interface SessionFixtures {
  log(job: string): string;
  project(job: string): Record<string, string>;
  ask(question: string, job: string): Promise<string>;
  cited(answer: string, job: string): void;
}

/** The fixtures under `root` (a directory of jobs). */
export function sessionFixtures(root: string): SessionFixtures {
  const log = (job: string): string => readFileSync(path.join(root, job, 'fail.log'), 'utf8');
  /** The job's project as checked out (path -> content). */
  const project = (job: string): Record<string, string> => {
    const base = path.join(root, job, 'project');
    const files: Record<string, string> = {};
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files[path.relative(base, full)] = readFileSync(full, 'utf8');
      }
    };
    walk(base);
    return files;
  };
  return {
    log,
    project,
    ask: (question, job) => askWithCheckout(question, log(job), project(job)),
    cited: (answer, job) => expect(checkCitations(answer, log(job).split('\n'))).toEqual([]),
  };
}
