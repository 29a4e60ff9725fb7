import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyze } from '../../core/log/analyze.js';
import type { LogExcerpt } from '../../protocol/types.js';
import { collectSnippets, pipelineScriptOf, subjectOf, type SnippetWorkspace } from './snippets.js';
import { importedSubjects } from './subject.js';

const DECL = "<?xml version='1.1' encoding='UTF-8'?>\n";

describe('pipelineScriptOf: where a job keeps its pipeline script', () => {
  it('an inline script (CpsFlowDefinition), entities decoded', () => {
    const xml = `${DECL}<flow-definition><definition class="org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition"><script>node { sh 'a &amp;&amp; b &lt; c' }</script><sandbox>true</sandbox></definition></flow-definition>`;
    expect(pipelineScriptOf(xml)).toEqual({ inline: "node { sh 'a && b < c' }" });
  });
  it('an SCM definition with its scriptPath, Jenkinsfile when it says none', () => {
    expect(pipelineScriptOf(`${DECL}<flow-definition><definition class="org.jenkinsci.plugins.workflow.cps.CpsScmFlowDefinition"><scriptPath>ci/Jenkinsfile</scriptPath></definition></flow-definition>`)).toEqual({ scriptPath: 'ci/Jenkinsfile' });
    expect(pipelineScriptOf(`${DECL}<flow-definition><definition class="org.jenkinsci.plugins.workflow.multibranch.SCMBinder"><scriptPath/></definition></flow-definition>`)).toEqual({ scriptPath: 'Jenkinsfile' });
    expect(pipelineScriptOf(`${DECL}<flow-definition><keepDependencies>false</keepDependencies></flow-definition>`)).toEqual({ scriptPath: 'Jenkinsfile' });
  });
  it('a freestyle job or no XML: none', () => {
    expect(pipelineScriptOf(`${DECL}<project><builders/></project>`)).toBeUndefined();
    expect(pipelineScriptOf('not xml at all <')).toBeUndefined();
  });
});

describe('subjectOf: the code a test file tests', () => {
  it.each([
    ['src/test/java/com/acme/OrderTotalsTest.java', 'src/java/com/acme/OrderTotals.java'],
    ['app/src/test/kotlin/a/CartTests.kt', 'app/src/kotlin/a/Cart.kt'],
    ['src/totals.test.ts', 'src/totals.ts'],
    ['src/__tests__/cart.spec.js', 'src/cart.js'],
    ['tests/test_cart.py', 'cart.py'],
    ['pkg/cart/cart_test.go', 'pkg/cart/cart.go'],
    ['tests/test_ring.c', 'ring.c'],
    ['test/cart_test.rb', 'cart.rb'],
    ['spec/cart_spec.rb', 'cart.rb'],
    ['tests/CartTest.php', 'Cart.php'],
    ['test/cart_SUITE.erl', 'cart.erl'],
    ['tb/adder_tb.vhd', 'adder.vhd'],
    ['sim/tb_alu.v', 'sim/alu.v'],
  ])('%s -> %s (found by its trailing segments)', (test, subject) => {
    expect(subjectOf(test)).toBe(subject);
  });
  it('a file that is no test has none', () => {
    expect(subjectOf('src/main/java/com/acme/Order.java')).toBeUndefined();
    expect(subjectOf('Jenkinsfile')).toBeUndefined();
  });
});

describe('importedSubjects: the project files a test imports, when the names do not pair up', () => {
  it.each([
    ['t/compare.t', ['use strict;', 'use Test::More tests => 4;', "use lib 'lib';", 'use Version;'], ['Version.pm']],
    ['test/checkout_test.rb', ["require 'minitest/autorun'", "require_relative '../lib/cart'"], ['lib/cart.rb']],
    ['tests/test_api.py', ['import unittest', 'from shop.cart import Cart'], ['shop/cart.py']],
    ['test/api.test.ts', ["import { describe } from 'vitest';", "import { total } from '../src/cart';"], ['src/cart.ts']],
    ['spec/cart_spec.lua', ["local cart = require('shop.cart')"], ['shop/cart.lua']],
    ['test/checkout_tests.erl', ['-include_lib("eunit/include/eunit.hrl").', 'total_test() -> ?assertEqual(3, cart:total([1,2])).'], ['cart.erl']],
    ['tests/test_ring.c', ['#include <assert.h>', '#include "../src/ring.h"'], ['src/ring.c']],
    // Rust integration tests use their crate by name (helper fx): its module file, else its lib.rs; never std's or a helper crate's.
    ['tests/limits.rs', ['use std::collections::HashMap;', 'use pretty_assertions::assert_eq;', 'use quota::clamp;'], ['src/lib.rs']],
    ['crates/geo/tests/round.rs', ['use geo::distance::haversine;'], ['crates/geo/src/distance.rs', 'crates/geo/src/lib.rs']],
    ['src/lib.rs', ['use quota::clamp;'], []],
  ])('%s', (path, lines, expected) => {
    expect(importedSubjects(path, lines)).toEqual(expected);
  });
});

describe('collectSnippets: the log analysed by the caller', () => {
  // A compile error naming two files of a workspace made here.
  const log = ['+ javac -d out src/a/A.java src/b/B.java', 'src/a/A.java:3: error: cannot find symbol', '    int x = y;', '            ^', '1 error', 'Finished: FAILURE'].join('\n');
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-snippets-excerpts-'));
    for (const f of ['src/a/A.java', 'src/b/B.java']) {
      fs.mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), Array.from({ length: 12 }, (_, i) => `// ${f} line ${i + 1}`).join('\n'));
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const workspaces = (): SnippetWorkspace[] => [{ workspaceId: 'w', dir }];

  it("its own analysis (through JSON, as a store keeps it) gives what collectSnippets' does", async () => {
    const own = await collectSnippets({ log, workspaces: workspaces() });
    expect(own.snippets.map((s) => s.path)).toContain('src/a/A.java');
    const excerpts = JSON.parse(JSON.stringify(analyze(log))) as LogExcerpt[];
    expect(await collectSnippets({ log, workspaces: workspaces(), excerpts })).toEqual(own);
  });

  it('is what the snippets follow: the log is not analysed again', async () => {
    // Excerpts that name only the compile command's line (both files, no line number): the
    // snippets follow them, so A.java's line 3, where the log's own analysis points, is not shown.
    const [first] = analyze(log);
    const excerpts: LogExcerpt[] = [{ ...first!, start_line: 1, end_line: 1, finding: undefined }];
    const { snippets } = await collectSnippets({ log, workspaces: workspaces(), excerpts });
    expect(snippets.map((s) => s.path)).not.toContain('src/a/A.java');
  });
});
