/**
 * Review of session 53 (helper rv3): "it works on my machine" (local/elsewhere.ts) and "what does ENOMEM mean?"
 * (local/focus.ts) on a Jenkins console with the Timestamper's clock before every line, and on a stored tail of a
 * log: a claim that the log prints nothing of a kind speaks only of the lines read. The console is a tuned one
 * (test/fixtures/jenkins-console d14-node-heap, split dev); each case failed before its mend.
 */
import { readFileSync } from 'node:fs';
import type { CiContextUpload } from '../protocol/schemas.js';
import { analyzedChatContext } from './answerFixtures.js';
import { askLocal } from './helpers/askLocal.js';

const D14 = readFileSync('test/fixtures/jenkins-console/logs/d14-node-heap.log', 'utf8');

const whole = (log: string): Promise<string> => askLocal('it works on my machine, why not on CI?', analyzedChatContext({ buildDetails: { result: 'FAILURE' } } as CiContextUpload, log));
const tailOf = (question: string, log: string, lines: number): Promise<string> => askLocal(question, analyzedChatContext({ buildDetails: { result: 'FAILURE' } } as CiContextUpload, log, { tailLines: lines }));

describe('it works on my machine: what the run shows, read through the CI clock', () => {
  it("the Timestamper's `[...Z] ` before each line: the agent line is read, not 'it prints no ...'", async () => {
    const answer = await whole(D14);
    expect(answer).toContain('- Where it ran: `Running on node-agent-1 in /home/jenkins/workspace/web` [L4-L4].');
    expect(answer).not.toContain("I can't tell from the log");
  });

  it('a console copied with its times shown (`HH:MM:SS `): the same', async () => {
    const copied = D14.split('\n').map((l) => l.replace(/^\[\d{4}-\d\d-\d\dT(\d\d:\d\d:\d\d)\.\d+Z\] /, '$1 ')).join('\n');
    expect(copied).toContain('04:06:41 Running on node-agent-1');
    expect(await whole(copied)).toContain('- Where it ran: `Running on node-agent-1 in /home/jenkins/workspace/web` [L4-L4].');
  });
});

describe("a stored tail: what the lines not held print is not denied", () => {
  it('it works on my machine: the part read is named, not the log', async () => {
    const answer = await tailOf('it works on my machine, why not on CI?', D14, 25);
    expect(answer).toContain('the part of the log I read (lines 33-57 of 57) prints no tool versions, system, locale or settings of the run');
    expect(answer).not.toContain('it prints no tool versions');
  });

  it('what does ENOMEM mean: the part read does not print it', async () => {
    const answer = await tailOf('what does ENOMEM mean?', D14, 25);
    expect(answer).toContain('**The part of the log I read (lines 33-57 of 57) does not print `ENOMEM`**');
    expect(answer).not.toContain('This log does not print');
  });
});

describe('it works on my Mac: the case-sensitivity sentence', () => {
  const MAC = `Started by user dana
Running on mac-mini-2 in /opt/ci/workspace/app
[Pipeline] sh
+ uname -a
Darwin mac-mini-2 23.1.0 Darwin Kernel Version 23.1.0: Mon Oct  9 21:27:24 PDT 2023; root:xnu-10002.41.9~6/RELEASE_ARM64_T6000 arm64
+ python3 -m pytest
ImportError while importing test module '/opt/ci/workspace/app/tests/test_rates.py'.
E   ModuleNotFoundError: No module named 'app.Rates'
ERROR: script returned exit code 2
Finished: FAILURE
`;
  it("a macOS agent under a Unix path (`/opt/ci/...`, `uname` says Darwin): its file system is not said to tell case apart", async () => {
    const answer = await askLocal('it works on my Mac, why not on CI?', analyzedChatContext({ buildDetails: { result: 'FAILURE' } } as CiContextUpload, MAC));
    expect(answer).toContain('- The system: `Darwin mac-mini-2 23.1.0');
    expect(answer).not.toContain('is a Unix one, where they usually do not');
  });

  it('the same agent on Linux: said, as a condition', async () => {
    const linux = MAC.replace(/^Darwin .*$/m, 'Linux ci-7 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) x86_64 GNU/Linux');
    const answer = await askLocal('it works on my Mac, why not on CI?', analyzedChatContext({ buildDetails: { result: 'FAILURE' } } as CiContextUpload, linux));
    expect(answer).toContain('the agent\'s path above is a Unix one, where they usually do not: if the name not found differs only in case');
  });
});

describe('a parallel branch of a build still running', () => {
  const RUNNING = `[Pipeline] parallel
[Pipeline] { (Branch: unit)
[Pipeline] { (Branch: lint)
[Pipeline] sh
[Pipeline] sh
+ make test
+ make lint
lint ok
[Pipeline] }
`;
  it('a branch without `Failed in branch` has not failed so far, not "did not fail"', async () => {
    const answer = await askLocal('did the unit branch fail?', analyzedChatContext({ buildDetails: { result: 'IN_PROGRESS' } } as CiContextUpload, RUNNING));
    expect(answer).toContain('**Parallel branch `unit` had not failed when this log was read (the build is still running)** [L2-L2]');
    expect(answer).not.toContain('did not fail**');
  });
});
