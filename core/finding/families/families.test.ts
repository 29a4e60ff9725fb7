/**
 * The rules of core/finding/families/ are kept by tool family (rv3, session 43: they were kept by the
 * tuning round that added them, rules9/10/11/13/16.ts), or by what they concern when many tools say it
 * (rv5, session 45: rules4a/4b/5a/5b.ts): every rule of a family's file names a tool of that family when
 * it names one, and each family's rules are in RULES once, in the place rules.ts gives them (the narrow
 * ones before the general rules).
 */
import { GENERAL_RULES, RULES, type Rule } from '../rules.js';
import * as compilers from './compilers.js';
import * as containers from './containers.js';
import * as downloads from './downloads.js';
import * as dotnet from './dotnet.js';
import * as git from './git.js';
import * as go from './go.js';
import * as js from './js.js';
import * as jvm from './jvm.js';
import * as nativeBuild from './nativeBuild.js';
import * as python from './python.js';
import * as qualityGates from './qualityGates.js';
import * as ruby from './ruby.js';
import * as runtimes from './runtimes.js';
import * as rust from './rust.js';
import * as shell from './shell.js';
import * as systemPackages from './systemPackages.js';
import * as testRunners from './testRunners.js';
import * as testVerdicts from './testVerdicts.js';
import * as timeouts from './timeouts.js';
import * as toolchains from './toolchains.js';

/** The tools each family's rules may name (`tool: '...'` in what a rule reads). */
const FAMILIES: Record<string, [Record<string, unknown>, string[]]> = {
  compilers: [compilers, []],
  containers: [containers, ['docker', 'hadolint']],
  downloads: [downloads, ['curl', 'wget', 'Invoke-WebRequest']], // PowerShell's download cmdlet (fx21)
  dotnet: [dotnet, ['nuget']],
  git: [git, ['git', 'ssh']], // ssh: git's transport, whose own lines sit above git's catch-all (ux18)
  go: [go, ['go']],
  js: [js, ['node', 'npm', 'npx', 'mocha', 'eslint', 'tsc']],
  jvm: [jvm, ['java', 'maven', 'maven-surefire', 'maven-enforcer', 'surefire', 'gradle', 'groovy']],
  nativeBuild: [nativeBuild, ['cmake', 'make', 'ld', 'autoconf', 'automake', 'pkg-config']],
  python: [python, ['python', 'pip', 'pytest', 'ruff']],
  qualityGates: [qualityGates, []],
  ruby: [ruby, ['ruby', 'bundler']],
  runtimes: [runtimes, ['ocaml', 'fpc', 'c++', 'php', 'R', 'Rscript']],
  rust: [rust, ['rustc', 'cargo', 'rust']],
  shell: [shell, ['sh', 'bash', 'env', 'sed', 'timeout', 'find']],
  systemPackages: [systemPackages, ['rpmbuild']],
  testRunners: [testRunners, []],
  testVerdicts: [testVerdicts, ['ctest']],
  timeouts: [timeouts, []],
  toolchains: [toolchains, ['node', 'mix']],
};

const rulesOf = (module: Record<string, unknown>): [string, Rule[]][] => Object.entries(module).filter((e): e is [string, Rule[]] => Array.isArray(e[1]));

test.each(Object.entries(FAMILIES))('%s: every rule names a tool of its family, or none', (_name, [module, tools]) => {
  const arrays = rulesOf(module);
  expect(arrays.length).toBeGreaterThan(0);
  const foreign: string[] = [];
  for (const [array, rules] of arrays) {
    for (const rule of rules) {
      const named = [...String(rule.read ?? '').matchAll(/tool: ["']([^"']+)["']/g)].map((m) => m[1]!);
      for (const tool of named) if (!tools.includes(tool)) foreign.push(`${array}: ${rule.re} names ${tool}`);
    }
  }
  expect(foreign).toEqual([]);
});

test('every family rule is in RULES once; the FIRST rules before the general rules, the others after them', () => {
  const general = RULES.indexOf(GENERAL_RULES[0]!);
  expect(general).toBeGreaterThan(0);
  for (const [name, [module]] of Object.entries(FAMILIES)) {
    for (const [array, rules] of rulesOf(module)) {
      for (const rule of rules) {
        const at = RULES.indexOf(rule);
        expect([name, array, at >= 0, RULES.lastIndexOf(rule) === at]).toEqual([name, array, true, true]);
        expect([name, array, array.endsWith('_FIRST_RULES') ? at < general : at > general]).toEqual([name, array, true]);
      }
    }
  }
});
