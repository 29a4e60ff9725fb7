/**
 * The change block links a process stopped by a time limit or by memory to the code of the checkout it ran (session 57,
 * helper ux19; issue 25): the script npm ran for a package script, a program built in the same log from the sources the
 * commit changed. Made-up logs (Node's heap wording, cargo's and go's build lines, `timeout`'s 124 under a Pipeline's
 * `sh`) and checkouts, read as `cichat ask --workspace DIR` reads them.
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-ux19-' });

const NODE_OOM = `Started by an SCM change
[app] $ /bin/sh -xe /tmp/jenkins1.sh
+ npm run issue

> app@1.0.0 issue
> node --max-old-space-size=64 tools/issue.js

issues read: 1000

<--- Last few GCs --->

[4242:0x5f1c2a0]      812 ms: Mark-Compact 62.1 (66.3) -> 61.9 (66.8) MB, 90.2 / 0.0 ms  (average mu = 0.21, current mu = 0.05) allocation failure; scavenge might not succeed

<--- JS stacktrace --->

FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb7a940 node::Abort() [node]
 2: 0xa8e823  [node]
Aborted (core dumped)
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const ISSUE_JS = (extra: string): string => `const issues = [];\nfor (let i = 0; i < 1000; i++) {\n  issues.push({ id: i });\n${extra}}\nconsole.log('issues read: ' + issues.length);\n`;
const PKG = `{\n  "name": "app",\n  "version": "1.0.0",\n  "scripts": { "issue": "node --max-old-space-size=64 tools/issue.js" }\n}\n`;

const pipeline = (build: string[], run: string, output: string[]): string => `Started by user Dana
[Pipeline] Start of Pipeline
[Pipeline] node
Running on agent-1 in /var/jenkins_home/workspace/app
[Pipeline] {
[Pipeline] sh
${build.join('\n')}
[Pipeline] sh
${run}
${output.join('\n')}
[Pipeline] }
[Pipeline] // node
[Pipeline] End of Pipeline
ERROR: script returned exit code 124
Finished: FAILURE
`;
const CARGO = pipeline(['+ cargo build', '   Compiling app v0.1.0 (/var/jenkins_home/workspace/app)', '    Finished dev [unoptimized + debuginfo] target(s) in 2.31s'], '+ timeout 20 ./target/debug/app', ['batch 1 done', 'batch 2 done']);
const MAIN_RS = (extra: string): string => `fn main() {\n    for b in 1..=3 {\n${extra}        println!("batch {} done", b);\n    }\n}\n`;
const GO = pipeline(['+ go build -o bin/sync ./cmd/sync'], '+ timeout 30 ./bin/sync', ['synced page 1']);
const SYNC_GO = (extra: string): string => `package main\n\nimport "fmt"\n\nfunc main() {\n\tfor page := 1; page <= 3; page++ {\n${extra}\t\tfmt.Println("synced page", page)\n\t}\n}\n`;

describe('a process stopped while it ran code the last commit changed', () => {
  it("Node's heap ran out in the script `npm run issue` ran: the hunk of tools/issue.js, not \"nothing here shows\"", async () => {
    const { dir, ids } = repo([
      { message: 'Issue tool', files: { 'tools/issue.js': ISSUE_JS(''), 'package.json': PKG } },
      { message: 'Keep history', files: { 'tools/issue.js': ISSUE_JS('  issues.push({ id: i, history: new Array(100000).fill(i) });\n') } },
    ]);
    const fix = await ask('how do I fix it?', NODE_OOM, dir);
    expect(fix).toContain(`Line 4 of \`tools/issue.js\`, the script the process was running when it ran out of memory (\`node --max-old-space-size=64 tools/issue.js\` [L6-L6]): commit \`${ids[1]?.slice(0, 10)}\` (Keep history) added`);
    expect(fix).toContain('The process that ran out of memory was running `tools/issue.js` [L6-L6], which this change edited. That makes the changed lines above the first suspect, not a proof');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
    expect(fix).not.toContain('the last output before the stop');
  });

  it('counter-example: the commit changed only the docs: "nothing here shows" stays', async () => {
    const { dir } = repo([
      { message: 'Issue tool', files: { 'tools/issue.js': ISSUE_JS(''), 'package.json': PKG, 'README.md': 'tools\n' } },
      { message: 'Docs', files: { 'README.md': 'the issue tool\n' } },
    ]);
    const fix = await ask('how do I fix it?', NODE_OOM, dir);
    expect(fix).toContain('Nothing here shows it caused the failure');
    expect(fix).not.toContain('ran out of memory was running');
  });

  it("`timeout`'s 124 on a program cargo built from the sources the commit changed", async () => {
    const { dir, ids } = repo([
      { message: 'App', files: { 'src/main.rs': MAIN_RS(''), 'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n' } },
      { message: 'Wait for the batch', files: { 'src/main.rs': MAIN_RS('        while b == 3 {}\n') } },
    ]);
    const fix = await ask('how do I fix it?', CARGO, dir);
    expect(fix).toContain(`Line 3 of \`src/main.rs\`, one of the Rust sources of \`./target/debug/app\`, which the log built from the checkout`);
    expect(fix).toContain(`commit \`${ids[1]?.slice(0, 10)}\` (Wait for the batch) added \`while b == 3 {}\``);
    expect(fix).toContain('The step was running `./target/debug/app` [L11-L11], built from the checkout');
    expect(fix).toContain('whose Rust sources this change edited (`src/main.rs`), when it was stopped; the last output before the stop was `batch 2 done` [L13-L13]');
    expect(fix).toContain('the prime suspect, not a proof');
  });

  it('`go build -o bin/sync` then `timeout 30 ./bin/sync`: the changed Go source', async () => {
    const { dir } = repo([
      { message: 'Sync', files: { 'cmd/sync/main.go': SYNC_GO(''), 'go.mod': 'module example.org/sync\n\ngo 1.22\n' } },
      { message: 'Retry a page', files: { 'cmd/sync/main.go': SYNC_GO('\t\tfor page == 2 {\n\t\t}\n') } },
    ]);
    const fix = await ask('how do I fix it?', GO, dir);
    expect(fix).toContain('of `cmd/sync/main.go`, one of the Go sources of `./bin/sync`, which the log built from the checkout (`go build -o bin/sync ./cmd/sync` [L7-L7])');
    expect(fix).toContain('the last output before the stop was `synced page 1`');
  });

  it('counter-example: the program was built, but the commit changed only a CI config and a test', async () => {
    const { dir } = repo([
      { message: 'App', files: { 'src/main.rs': MAIN_RS(''), 'tests/it.rs': '#[test]\nfn t() {}\n', '.github/labeler.yml': 'docs: []\n' } },
      { message: 'Config', files: { 'tests/it.rs': '#[test]\nfn t() { assert!(true); }\n', '.github/labeler.yml': 'docs: [docs/**]\n' } },
    ]);
    const fix = await ask('how do I fix it?', CARGO, dir);
    expect(fix).not.toContain('one of the Rust sources');
    expect(fix).not.toContain('prime suspect');
  });
});
