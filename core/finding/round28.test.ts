import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';
import { refusedOperand } from './refused.js';
import { commandOf } from './generic.js';

/**
 * Session 54 (helper t29; docs/notes/analyzer.md "Session 54 (helper t29)"): mechanisms of the open rounds' class
 * misses that hold across tools, each on a made-up minimal log in the tool's own words (every row read another class
 * before the change), with counter-examples that must not move. Checked on round 28 (held out then) by counts only.
 * 1. A tool's refusal of an operand of the step's own command (refused.ts): the command asked for a path, a task, a
 *    directory that is not there, or is there already: the script's error, whatever the tool.
 */
const top = (log: string) => analyze(log)[0]?.finding;
const step = (...lines: string[]) => ['Started by user ci', '[Pipeline] sh', ...lines, '[Pipeline] }', '[Pipeline] // stage', 'ERROR: script returned exit code 1', 'Finished: FAILURE', ''].join('\n');

const ROWS: [name: string, log: string, message: string][] = [
  ['git worktree add over an existing path', step('+ git branch -f pages HEAD', '+ git worktree add out/pages pages', "Preparing worktree (checking out 'pages')", "fatal: 'out/pages' already exists"), "'out/pages' already exists"],
  ['ln -s over an existing link', step('+ mkdir -p www/v3', '+ ln -s v3 www/latest', "ln: failed to create symbolic link 'www/latest': File exists"), "'www/latest': File exists"],
  ['gradle task name ambiguous', step('+ gradle --offline -q check bundle', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Task 'bundle' is ambiguous in root project 'maps'. Candidates are: 'bundleDebug', 'bundleRelease'.", '', '* Try:', '> Run gradle tasks to get a list of available tasks.'),
    "Task 'bundle' is ambiguous"],
  ['unzip of a renamed archive', step('+ unzip -q dist/docs-1.2.zip -d public', 'unzip:  cannot find or open dist/docs-1.2.zip, dist/docs-1.2.zip.zip or dist/docs-1.2.zip.ZIP.'), 'cannot find or open dist/docs-1.2.zip'],
];

describe('round 28 mechanisms, checked unseen (session 54, t29)', () => {
  it.each(ROWS)('%s', (_name, log, message) => {
    const f = top(log);
    expect([f?.class, f?.message.includes(message)]).toEqual(['ci-script', true]);
  });

  it('an operand is what the command was given, not what a fetch names or a line merely says', () => {
    const cmd = (t: string) => commandOf(t);
    expect(refusedOperand(cmd('git worktree add out/pages pages'), "fatal: 'out/pages' already exists")).toBe('out/pages');
    expect(refusedOperand(cmd('cmake --build out/rel'), 'Error: /ws/proj/out/rel is not a directory')).toBe('out/rel');
    // Fetching by name: the registry's or the network's.
    expect(refusedOperand(cmd('pip install acme-utilz'), "ERROR: Could not find a version that satisfies the requirement 'acme-utilz'")).toBeUndefined();
    expect(refusedOperand(cmd('docker pull registry.local/acme/api:1.4'), 'Error response from daemon: manifest for registry.local/acme/api:1.4 not found')).toBeUndefined();
    // A host, a bare unquoted word (a subcommand), a path the command did not give.
    expect(refusedOperand(cmd('ssh deploy@build-host.internal uptime'), 'ssh: Could not resolve hostname build-host.internal: not found')).toBeUndefined();
    expect(refusedOperand(cmd('docker build -t web .'), 'ERROR: failed to build: dockerfile not found')).toBeUndefined();
    expect(refusedOperand(cmd('./build/test_prices'), 'fixture: cannot open fixtures/prices.csv: No such file or directory')).toBeUndefined();
  });

  it('neighbours keep their classes', () => {
    // Tools a rule reads already: mv's, kubectl's and tar's refusals of the command's own path stay the script's.
    expect(top(step('+ mv build/app.tar.gz releases/2.0/', "mv: cannot move 'build/app.tar.gz' to 'releases/2.0/': No such file or directory"))?.class).toBe('ci-script');
    expect(top(step('+ kubectl apply --dry-run=client -f deploy/web.yaml', 'error: the path "deploy/web.yaml" does not exist'))?.class).toBe('ci-script');
    expect(top(step('+ tar -xzf vendor/sdk-2.1.tgz -C third_party', 'tar (child): vendor/sdk-2.1.tgz: Cannot open: No such file or directory', 'tar (child): Error is not recoverable: exiting now'))?.class).toBe('ci-script');
    // pip's package it cannot find is a dependency's.
    expect(top(step('+ pip install acme-utilz', 'ERROR: Could not find a version that satisfies the requirement acme-utilz (from versions: none)', 'ERROR: No matching distribution found for acme-utilz'))?.class).toBe('dependency-resolution');
    // A test program's fixture that is missing (a path the test opens, not the command's) is not the script's.
    expect(top(step('+ ./build/test_prices', 'fixture: cannot open fixtures/prices.csv: No such file or directory'))?.class).not.toBe('ci-script');
    // A host the command names that does not resolve is the network's.
    expect(top(step('+ ssh deploy@build-host.internal ./restart.sh', 'ssh: Could not resolve hostname build-host.internal: Name or service not known'))?.class).toBe('network');
    // An image the command pulls that the registry lacks is a dependency's.
    expect(top(step('+ docker pull registry.local/acme/api:1.4', 'Error response from daemon: manifest for registry.local/acme/api:1.4 not found: manifest unknown: manifest unknown'))?.class).not.toBe('ci-script');
  });
});
