/**
 * "How do I fix it?" with what the context says changed (issue 25, Deliver 3): the commit that
 * touched the failing file or a file the workspace clues name (the git plugin lists paths as
 * `M src/a.c`), and the diff command between the last green commit and this one when the build's
 * environment names both. Real failures (tuning data), the change set added as Jenkins sends it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const ROOT = path.join(process.cwd(), 'test', 'fixtures', 'realfail');

async function fixFor(id: string, extra: Record<string, unknown>): Promise<string> {
  const log = readFileSync(path.join(ROOT, id, 'fail.log'), 'utf8');
  const snippets = await snippetsFromDir(path.join(ROOT, id, 'project'), log);
  const upload = { ...extra, buildDetails: { result: 'FAILURE', consoleLog: log, ...(extra.buildDetails as object) }, workspaceSnippets: snippets } as CiContextUpload;
  return (await composeLocalAnswer('How do I fix it?', analyzedChatContext(upload, log))).text;
}

describe('the fix names the change since the last green build that touched it', () => {
  it('the commit that touched the failing file, from the change log\'s `M path` lines', async () => {
    const fix = await fixFor('maven-compile-wrong-type', {
      buildDetails: {
        changes: [
          { commitId: 'aaaaaaa111', author: 'ann', message: 'docs: readme', files: ['M README.md'] },
          { commitId: 'bbbbbbb222', author: 'bob', message: 'orders: totals as BigDecimal', files: ['M src/main/java/com/acme/orders/OrderReport.java', 'M pom.xml'] },
        ],
      },
    });
    expect(fix).toContain('**The change in this build that touched `src/main/java/com/acme/orders/OrderReport.java`:**');
    expect(fix).toContain('`bbbbbbb222` orders: totals as BigDecimal — bob');
    expect(fix).not.toMatch(/touched[^\n]*\n- `aaaaaaa111`/);
  });

  it('a commit that changed a file the workspace clue names (a header), and the diff command from the environment', async () => {
    const fix = await fixFor('gcc-multiple-definition', {
      buildDetails: { changes: [{ commitId: 'ccccccc333', author: 'cy', message: 'log: drop the setter', files: ['M include/log.h', 'M src/log.c'] }] },
      ciEnvironment: { GIT_COMMIT: 'abcdef1234567890', GIT_PREVIOUS_SUCCESSFUL_COMMIT: '1234567890abcdef' },
    });
    expect(fix).toContain('`ccccccc333` log: drop the setter — cy changed `include/log.h`, the file named above.');
    expect(fix).toContain('`git diff 1234567890ab..abcdef123456 -- include/log.h`');
  });

  it('no diff command without both commits', async () => {
    const fix = await fixFor('gcc-multiple-definition', { ciEnvironment: { GIT_COMMIT: 'abcdef1234567890' } });
    expect(fix).not.toContain('git diff');
  });
});

describe("the commits' files when none touched the failing file", () => {
  it('each commit with the files the change log lists for it', async () => {
    const fix = await fixFor('cargo-test-assert-message', { buildDetails: { changes: [{ commitId: 'ddddddd444', author: 'di', message: 'duration: limit minutes', files: ['M src/lib.rs'] }] } });
    expect(fix).toContain('(none lists `tests/limits.rs`)');
    expect(fix).toContain('`ddddddd444` duration: limit minutes — di; it touched `src/lib.rs`');
  });
});

describe('the findings bench --changes: the breaking commit as Jenkins lists changes', () => {
  it('files from the diff headers, with their status, under a neutral message', async () => {
    const { changesOfDiff } = await import('../bench/findings.js');
    const diff = ['diff --git a/src/a.c b/src/a.c', 'index 1..2 100644', '--- a/src/a.c', '+++ b/src/a.c', 'diff --git a/src/new.c b/src/new.c', 'new file mode 100644', 'diff --git a/old.h b/old.h', 'deleted file mode 100644', 'diff --git a/x.py b/y.py', 'similarity index 90%'].join('\n');
    expect(changesOfDiff(diff)).toEqual([{ commitId: expect.any(String) as string, message: 'The change built by this build', files: ['M src/a.c', 'A src/new.c', 'D old.h', 'R100 x.py -> y.py'] }]);
  });
});

describe('the variables the step set, for the code it ran', () => {
  it('a test whose output changed under a variable the step set is shown that variable', async () => {
    const fix = await fixFor('bats-output-mismatch', {});
    expect(fix).toMatch(/\*\*The step's settings before the error\*\* \(as the shell and npm echoed them; what it ran inherits its variables\):\n- `GREET_MORNING=1` \[L9-L9\]/);
  });
});

describe('a test assertion with the change list beside it (ux12: perl-invoice asked with --job)', () => {
  it('does not say the change since the test last passed is unknown where the build record lists the commits', async () => {
    const fix = await fixFor('cargo-test-assert-message', { buildDetails: { changes: [{ commitId: 'eeeeeee555', author: 'ed', message: 'duration: round up', files: ['M src/lib.rs'] }] } });
    expect(fix).toContain('`eeeeeee555` duration: round up — ed');
    expect(fix).not.toContain('the log does not show what changed since the test last passed');
  });
});
