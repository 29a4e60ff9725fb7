import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from './analyze.js';

/** A pipeline's own words (pipelineOwn.ts) and an agent the cloud could not create (jenkins.ts), on real consoles of test/fixtures/jenkins-console. */
const LOGS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/jenkins-console/logs');
const topOf = (id: string): [number, number] => {
  const e = analyze(readFileSync(path.join(LOGS, `${id}.log`), 'utf8'))[0];
  return [e?.start_line ?? 0, e?.end_line ?? 0];
};
const covers = ([a, b]: [number, number], line: number): boolean => a <= line && line <= b;

describe("a pipeline's own words", () => {
  it('reads past a status line the Jenkinsfile echoes to the error above it', () => {
    // `❌ Deployment failed! ...` after `[Pipeline] echo` in a post section; the cause is aws' error.
    expect(covers(topOf('r4-16-aws-no-credentials-long'), 66)).toBe(true);
  });

  it('keeps a cause the Jenkinsfile echoes from a catch', () => {
    // `Exception: java.nio.file.FileSystemException: ...: No space left on device` after `[Pipeline] echo`.
    expect(covers(topOf('tune3-30-workspace-disk-full'), 12)).toBe(true);
  });

  it('takes an error in a post condition after a failure as its aftermath', () => {
    // Checkout's AccessDeniedException (l. 12) over the post section's missing `cleanWs` step.
    const top = topOf('r4-18-checkout-access-denied-long');
    expect(covers(top, 12) || covers(top, 114)).toBe(true);
  });

  it('keeps an error in a post condition when nothing failed before it', () => {
    // The build's only error is the post section's (`az logout`), then the credentials' type at the end.
    expect(covers(topOf('r25-credentials-wrong-type-azure-sp'), 39)).toBe(true);
  });

  it('puts an agent pod the cloud refused over the label with no agent', () => {
    expect(covers(topOf('w4-02-k8s-pod-exceeded-quota'), 12)).toBe(true);
  });
});
