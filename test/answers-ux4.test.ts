/**
 * Answers a tired engineer got on failures made on this machine (helper ux4, session 43;
 * test/fixtures/ux4: a Go test past its -timeout, a node:test assertion), each checked against
 * what the log says.
 */

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { snippetsFromDir } from '../cli/snippets.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { askLocal } from './helpers/askLocal.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';

const log = (name: string): string => readFileSync(new URL(`./fixtures/ux4/${name}`, import.meta.url), 'utf8');

describe('answers on failures made by ux4', () => {
  it('an excerpt printed after the error is not called "output before the failure"', async () => {
    // The goroutine dump of a timed-out Go test (after `panic: test timed out`), the TAP summary after a failed node:test.
    for (const [name, errorLine] of [
      ['go-test-timeout.log', 6],
      ['node-test-assert.log', 18],
    ] as const) {
      const why = await askLocal('why did the build fail?', analyzedChatContext({}, log(name)));
      expect([name, why]).toEqual([name, expect.stringContaining(`the first real error is [L${errorLine}-L${errorLine}]`)]);
      const also = why.slice(why.indexOf('**Also in the log**'));
      expect([name, also]).toEqual([name, expect.stringContaining('*output after the error*')]);
      expect([name, also]).toEqual([name, expect.not.stringContaining('output before the failure')]);
    }
  });

  it('a variable nothing set (`set -u`): the source line only reads it, so the fix is to set it, never "change line 7 as the error says"', async () => {
    const text = log('bash-unbound-variable.log');
    const dir = mkdtempSync(path.join(tmpdir(), 'cichat-ux4-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(
      path.join(dir, 'scripts/release.sh'),
      '#!/bin/bash\nset -euo pipefail\nVERSION=$(cat VERSION)\necho "Preparing release $VERSION"\nmkdir -p dist\ntar czf "dist/app-$VERSION.tar.gz" VERSION scripts\necho "Tagging for $RELEASE_CHANNEL"\necho "done"\n',
    );
    const upload = { buildDetails: { result: 'FAILURE', consoleLog: text }, workspaceSnippets: await snippetsFromDir(dir, text) } as CiContextUpload;
    const fix = await askLocal('how do I fix it?', analyzedChatContext(upload, text));
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
    // ux5: said once, in the cited step; the source's **Fix:** line that repeated it is left out.
    expect(fix).toContain('The script reads `$RELEASE_CHANNEL` at `./scripts/release.sh:7` and nothing set it [L7-L7]');
    expect(fix.split('in the job\'s environment or parameters').length - 1).toBe(1);
    expect(fix).not.toContain('as the error says');
    expect(fix).not.toContain('that is where the value the step used comes from');
    // The class is held at medium: the hedge must not claim that no rule decided it.
    const why = await askLocal('why did the build fail?', analyzedChatContext(upload, text));
    expect(why).not.toContain('No rule made for this exact message');
  });

  it('an int declared String is made text by a call, never "a cast or rounding"; articles read right', async () => {
    const text = log('javac-int-to-string.log');
    const dir = mkdtempSync(path.join(tmpdir(), 'cichat-ux4-'));
    dirs.push(dir);
    mkdirSync(path.join(dir, 'src/com/acme/calc'), { recursive: true });
    writeFileSync(
      path.join(dir, 'src/com/acme/calc/Report.java'),
      'package com.acme.calc;\n\npublic class Report {\n    public static void main(String[] args) {\n        int[] values = {3, 4, 5};\n        String total = Totals.sum(values);\n        System.out.println("total=" + total);\n    }\n}\n',
    );
    const upload = { buildDetails: { result: 'FAILURE', consoleLog: text }, workspaceSnippets: await snippetsFromDir(dir, text) } as CiContextUpload;
    const fix = await askLocal('how do I fix it?', analyzedChatContext(upload, text));
    expect(fix).toContain('declares a `String` for an `int` value: declare it as the value\'s type, `int total = Totals.sum(values);`, or make it text (`String.valueOf(...)`)');
    expect(fix).not.toContain('a cast or rounding');
  });

  it('a time limit names where the run was when stopped, never the runner\'s frame as where it was raised', async () => {
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, log('go-test-timeout.log')));
    expect(why).toContain("When it was stopped, the deepest frame in the project's own code is `/tmp/ux4/jh/workspace/infra-timeout/queue/queue_test.go:14` (in `example.com/queue/queue.TestPopWaitsForPush`) [L30-L30].");
    expect(why).not.toContain('_testmain.go');
    expect(why).not.toContain('It was raised at');
  });

  it("a type error go vet printed is go vet's, not the Go compiler's", async () => {
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, log('go-vet-type-error.log')));
    expect(why).toContain("**What it means:** `go vet`'s type check rejected the code at `cmd/server/main.go:10:16`");
    expect(why).not.toContain('the Go compiler');
    expect(why).not.toContain('The Go compiler');
  });

  it('a refused loopback connection whose message has no port: the port the lines above give, cited there', async () => {
    const text = log('pip-index-refused.log');
    const fix = await askLocal('how do I fix it?', analyzedChatContext({}, text));
    // ux5: the port is the package index's, named on the line that prints it.
    expect(fix).toContain('`http://127.0.0.1:47999/simple` [L7-L7]');
    expect(fix).toContain('`nc -vz 127.0.0.1 47999`');
    expect(fix).not.toContain('PORT');
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });
});

