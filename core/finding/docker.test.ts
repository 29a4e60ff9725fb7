import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import type { Finding } from '../../protocol/types.js';

/** Docker's refused pull (rules.ts): two causes left open by its own words, so a credential at medium confidence. */
const top = (...lines: string[]): Finding | undefined => analyze(['[ci] $ /bin/bash -xe ci.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n'))[0]?.finding;

describe("Docker's refused pull", () => {
  it('a private registry: credentials at medium confidence, the registry as the host', () => {
    const f = top('+ docker compose -f it/compose.yml up -d db', "Error response from daemon: pull access denied for registry.internal/postgres-it, repository does not exist or may require 'docker login': denied: requested access to the resource is denied");
    expect([f?.class, f?.confidence, f?.host, f?.tool]).toEqual(['permission-credentials', 'medium', 'registry.internal', 'docker']);
  });
  it('an image of Docker Hub (no registry in its name): docker.io', () => {
    const f = top('+ docker run --rm acme/builder:3 make', "docker: Error response from daemon: pull access denied for acme/builder, repository does not exist or may require 'docker login'.");
    expect([f?.class, f?.confidence, f?.host]).toEqual(['permission-credentials', 'medium', 'docker.io']);
  });
  it('counter-example: a push the registry denied is a credential at high confidence (nothing else is left open)', () => {
    const f = top('+ docker push registry.internal/shop/api:1.4', 'The push refers to repository [registry.internal/shop/api]', 'denied: requested access to the resource is denied');
    expect([f?.class, f?.confidence]).toEqual(['permission-credentials', 'high']);
  });
});
