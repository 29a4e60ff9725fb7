import { describe, expect, it } from '@jest/globals';
import { framesOf, traceEndBelow, tracesIn } from './frames.js';

describe('the project frame of a JVM trace', () => {
  it('skips the Jenkins sandbox and CPS frames of a Pipeline script error for WorkflowScript', () => {
    // A script-security rejection as Jenkins prints it (held-out round 4's w4-05, opened for tuning).
    const lines = [
      'org.jenkinsci.plugins.scriptsecurity.sandbox.RejectedAccessException: Scripts not permitted to use staticMethod jenkins.model.Jenkins getInstance',
      '\tat org.jenkinsci.plugins.scriptsecurity.sandbox.whitelists.StaticWhitelist.rejectStaticMethod(StaticWhitelist.java:283)',
      '\tat org.jenkinsci.plugins.scriptsecurity.sandbox.groovy.SandboxInterceptor.onStaticCall(SandboxInterceptor.java:208)',
      '\tat org.kohsuke.groovy.sandbox.impl.Checker$2.call(Checker.java:193)',
      '\tat WorkflowScript.run(WorkflowScript:14)',
      '\tat ___cps.transform___(Native Method)',
      '\tat com.cloudbees.groovy.cps.Next.step(Next.java:83)',
    ];
    const [trace] = tracesIn(lines, 1);
    expect(framesOf(trace!).project).toMatchObject({ file: 'WorkflowScript', line: 14 });
  });
});

describe('a third-party library in a JVM trace through a test class', () => {
  // A JDBC driver's own wrapper over its cause (round 12's maven-postgres-unknown-host, as surefire prints it).
  const lines = [
    'org.postgresql.util.PSQLException: The connection attempt failed.',
    '\tat org.postgresql.Driver.connect(Driver.java:305)',
    '\tat java.sql/java.sql.DriverManager.getConnection(DriverManager.java:229)',
    '\tat dev.acme.repo.Db.connect(Db.java:16)',
    '\tat dev.acme.repo.DbTest.connects(DbTest.java:17)',
    'Caused by: java.net.UnknownHostException: db.internal',
    '\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:572)',
    '\tat org.postgresql.core.PGStream.createSocket(PGStream.java:270)',
    '\t... 3 more',
  ];
  it('takes the frame under the test class\'s root package for the project\'s, not the driver\'s', () => {
    const [trace] = tracesIn(lines, 1);
    expect(framesOf(trace!).project).toMatchObject({ file: 'dev/acme/repo/Db.java', line: 16 });
  });
  it('leaves a trace without a test class as it was (the driver\'s frame is the innermost not known as a library\'s)', () => {
    const [trace] = tracesIn(lines.filter((l) => !l.includes('DbTest')), 1);
    expect(framesOf(trace!).project).toMatchObject({ file: 'org/postgresql/core/PGStream.java', line: 270 });
  });
});

describe('the trace below a window', () => {
  const at = (lines: string[]) => (i: number): string => lines[i] ?? '';
  it('passes a message\'s further lines over its frames (Node\'s ES module scope error under mocha)', () => {
    const lines = [
      'Exception during run: ReferenceError: require is not defined in ES module scope, you can use import instead',
      "This file is being treated as an ES module because it has a '.js' file extension",
      '    at file:///ws/test/line.test.js:1:16',
      '    at ModuleJobSync.runSync (node:internal/modules/esm/module_job:437:37)',
      '+ exit 1',
    ];
    expect(traceEndBelow(at(lines), 0, lines.length, 60)).toBe(3);
  });
  it('does not pass a command, another exception or a Rust backtrace\'s heading', () => {
    for (const between of ['+ node other.js', 'TypeError: other', 'stack backtrace:']) {
      const lines = ['Error: first', between, '    at /ws/x.js:1:2'];
      expect(traceEndBelow(at(lines), 0, lines.length, 60)).toBe(0);
    }
  });
});

describe("a Go fatal error's dump", () => {
  it("reads its frames with their registers (` +0x265 fp=... sp=... pc=...`) and takes the project's under the runtime's", () => {
    const lines = [
      'fatal error: out of memory',
      '',
      'goroutine 1 [running]:',
      'runtime.throw({0x4a2300?, 0xc000086c40?})',
      '\t/usr/lib/go-1.19/src/runtime/panic.go:1047 +0x5d fp=0xc000086b60 sp=0xc000086b30 pc=0x4323bd',
      'runtime.makeslice(0xc0000a4016?, 0x9?, 0xf?)',
      '\t/usr/lib/go-1.19/src/runtime/slice.go:103 +0x52 fp=0xc000086c50 sp=0xc000086c28 pc=0x447452',
      'main.main()',
      '\t/ws/cmd/rollup/main.go:31 +0x265 fp=0xc000086f80 sp=0xc000086c50 pc=0x488a65',
    ];
    const [trace] = tracesIn(lines, 1);
    expect(framesOf(trace!).project).toMatchObject({ file: '/ws/cmd/rollup/main.go', line: 31, function: 'main.main' });
  });
});
