import { describe, expect, it } from '@jest/globals';
import { framesOf, tracesIn } from './frames.js';

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
