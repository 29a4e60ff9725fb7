/**
 * The change block links a change to the failing command's script line and to the module the error's line calls
 * (session 54, helper fx17): made-up checkouts with a git history, read as `cichat ask --workspace DIR` reads them.
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-fx17-' });

const SH_LOG = `Started by an SCM change
Building in workspace /tmp/fx17/jh/workspace/sensor-poll
[sensor-poll] $ /bin/sh -xe /tmp/jenkins17515733.sh
+ sh ci.sh
+ mkdir -p build
+ gcc -O1 -Wall -o build/poll src/poll.c
+ timeout 5 ./build/poll
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const POLL = 'int main(void) { for (;;) {} return 0; }\n';
const CI = (run: string): string => `mkdir -p build\ngcc -O1 -Wall -o build/poll src/poll.c\n${run}\n`;

const ML_LOG = `+ dune build
File "report.ml", line 5, characters 2-26:
5 |   Price.format cents "EUR"
      ^^^^^^^^^^^^^^^^^^^^^^^^
Error: This function has type int -> string
       It is applied to too many arguments; maybe you forgot a \`;'.
`;
const REPORT = 'let line cents =\n  let _ = cents in\n  ()\nlet total cents =\n  Price.format cents "EUR"\n';

describe('the change block and the failing command', () => {
  it('a commit that changed the very script line that ran the failing command: quoted, never "names no file"', async () => {
    const { dir, ids } = repo([
      { message: 'Poll', files: { 'ci.sh': CI('./build/poll'), 'src/poll.c': POLL } },
      { message: 'Bound the poll', files: { 'ci.sh': CI('timeout 5 ./build/poll') } },
    ]);
    const fix = await ask('how do I fix it?', SH_LOG, dir);
    expect(fix).toContain('`ci.sh:3` runs the command that failed');
    expect(fix).toContain(`Line 3 of \`ci.sh\`, the line that runs the failing command (\`ci.sh:3\`): commit \`${ids[1]?.slice(0, 10)}\` (Bound the poll) changed \`./build/poll\` to \`timeout 5 ./build/poll\`.`);
    expect(fix).toContain('The change wrote the line that runs the failing command');
    expect(fix).not.toContain("the error names no file of the checkout");
  });

  it('a change elsewhere in that script is still the script of the step, not "names no file"', async () => {
    const { dir } = repo([
      { message: 'Poll', files: { 'ci.sh': CI('timeout 5 ./build/poll'), 'src/poll.c': POLL } },
      { message: 'Optimise', files: { 'ci.sh': CI('timeout 5 ./build/poll').replace('-O1', '-O2') } },
    ]);
    const fix = await ask('how do I fix it?', SH_LOG, dir);
    expect(fix).toContain('Line 2 of `ci.sh`, the script that runs the failing command');
    expect(fix).not.toContain('the line that runs the failing command (');
    expect(fix).not.toContain("the error names no file of the checkout");
  });

  it('counter-example: a change to an unrelated file stays "I can\'t tell"', async () => {
    const { dir } = repo([
      { message: 'Poll', files: { 'ci.sh': CI('timeout 5 ./build/poll'), 'src/poll.c': POLL, 'README.md': 'poll\n' } },
      { message: 'Docs', files: { 'README.md': 'poll the sensor\n' } },
    ]);
    const fix = await ask('how do I fix it?', SH_LOG, dir);
    expect(fix).not.toContain('the line that runs the failing command (');
    expect(fix).toMatch(/It changed `README\.md`|did not touch the script that runs the failing command \(`ci\.sh`\)/);
  });
});

describe('the change block and the module the error\'s line calls', () => {
  it('OCaml: report.ml:5 calls Price.format and the commit changed price.ml: the hunk with format quoted', async () => {
    const { dir, ids } = repo([
      { message: 'Prices', files: { 'price.ml': 'let format cents currency =\n  Printf.sprintf "%d %s" cents currency\n', 'report.ml': REPORT, dune: '(executable (name report))\n' } },
      { message: 'Euro only', files: { 'price.ml': 'let format cents =\n  Printf.sprintf "%d %s" cents "EUR"\n' } },
    ]);
    const fix = await ask('how do I fix it?', ML_LOG, dir);
    expect(fix).toContain(`of \`price.ml\`, the file that defines \`Price\`, which the error's line calls (\`Price.format\`): commit \`${ids[1]?.slice(0, 10)}\` (Euro only)`);
    expect(fix).toContain('let format cents =');
    expect(fix).toContain("The error's line calls what this change edited");
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it('counter-example: a changed file that defines another module stays as today', async () => {
    const { dir } = repo([
      { message: 'Prices', files: { 'price.ml': 'let format cents currency =\n  Printf.sprintf "%d %s" cents currency\n', 'tax.ml': 'let rate = 20\n', 'report.ml': REPORT } },
      { message: 'Rate', files: { 'tax.ml': 'let rate = 21\n' } },
    ]);
    const fix = await ask('how do I fix it?', ML_LOG, dir);
    expect(fix).not.toContain('the file that defines');
    expect(fix).toContain('Nothing here shows it caused the failure');
  });

  it('Java: Report.java:3 calls Price.format and the commit changed Price.java', async () => {
    const log = `+ javac -d build src/Price.java src/Report.java
src/Report.java:3: error: method format in class Price cannot be applied to given types;
        return Price.format(cents, "EUR");
                    ^
  required: int
  found:    int,String
  reason: actual and formal argument lists differ in length
1 error
`;
    const { dir } = repo([
      { message: 'Prices', files: { 'src/Price.java': 'class Price {\n  static String format(int cents, String cur) {\n    return cents + " " + cur;\n  }\n}\n', 'src/Report.java': 'class Report {\n  static String total(int cents) {\n        return Price.format(cents, "EUR");\n  }\n}\n' } },
      { message: 'Euro only', files: { 'src/Price.java': 'class Price {\n  static String format(int cents) {\n    return cents + " EUR";\n  }\n}\n' } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain("of `src/Price.java`, the file that defines `Price`, which the error's line calls (`Price.format`)");
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });
});

describe('the change block and a Pipeline\'s Jenkinsfile', () => {
  const PIPE_LOG = `Started by an SCM change
[Pipeline] Start of Pipeline
[Pipeline] node
[Pipeline] {
[Pipeline] stage
[Pipeline] { (Build)
[Pipeline] sh
+ make dist
make: *** No rule to make target 'dist'.  Stop.
[Pipeline] }
[Pipeline] // stage
[Pipeline] }
[Pipeline] End of Pipeline
ERROR: script returned exit code 2
Finished: FAILURE
`;
  const JF = (cmd: string): string => `pipeline {\n  agent any\n  stages {\n    stage('Build') {\n      steps {\n        sh '${cmd}'\n      }\n    }\n  }\n}\n`;

  it('a Jenkinsfile sh step the commit changed is the line that runs the failing command', async () => {
    const { dir } = repo([
      { message: 'Build', files: { Jenkinsfile: JF('make'), Makefile: 'all:\n\techo ok\n' } },
      { message: 'Dist', files: { Jenkinsfile: JF('make dist') } },
    ]);
    const fix = await ask('how do I fix it?', PIPE_LOG, dir);
    expect(fix).toContain("Line 6 of `Jenkinsfile`, the line that runs the failing command (`Jenkinsfile:6`): commit ");
    expect(fix).toContain("changed `sh 'make'` to `sh 'make dist'`.");
    expect(fix).not.toContain('the error names no file of the checkout');
    expect(fix).not.toContain('did not touch the files the error names');
  });
});
