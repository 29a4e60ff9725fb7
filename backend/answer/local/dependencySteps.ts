/**
 * What to do about a dependency that did not resolve: general CI knowledge, cited at the message.
 * The kind of failure the resolver's own words state comes first (versions that conflict, a lock
 * file or vendor directory out of step with the manifest, content that no longer matches its
 * recorded checksum, a local path that is not there, a version specifier the tool does not
 * understand); only a failure of none of these kinds gets the resolver's "check the name and
 * version" step. Every step yields to a step from the tool's own wording (remedyShape.ts, rule 5).
 */
import type { Finding } from '../../../protocol/types.js';
import { at, inlineCode } from '../logtext.js';
import type { RemedyStep } from './remedyShape.js';
import { offlineLine } from './remedyWhere.js';


/** Resolvers' words for requirements that cannot hold together (pip, npm, cargo, poetry, Maven's enforcer). */
const CONFLICT = /conflicting dependencies|ResolutionImpossible|\bERESOLVE\b|unable to resolve dependency tree|Conflicting peer dependency|version solving failed|incompatible (?:version )?requirements|Dependency convergence error|has requirement .+?, but you have|, but you have .+? which is incompatible|conflicts with direct dependency/i;
/** A lock file or vendor copy that no longer matches the manifest, which the command may not update. */
const LOCK_STALE = /cannot update the lock file .*--locked|lock file .*needs to be updated but --locked|can only install packages when your package\.json and package-lock\.json|lockfile (?:needs to be updated|is not up to date)|--frozen-lockfile|updates to go\.mod needed|missing go\.sum entry|inconsistent vendoring|poetry\.lock .*(?:not consistent|changed significantly)/i;
/** Content that differs from the checksum the project or the tool recorded for it. */
const CHECKSUM = /checksum mismatch|checksum (?:of .* )?(?:for .* )?(?:has )?changed|\bEINTEGRITY\b|integrity checksum failed|do(?:es)? not match the hashes/i;
/** A local path the manifest points at (a file: or path dependency, Maven's systemPath): its path. */
const LOCAL_PATH = /at specified path (\S+)|ENOENT: no such file or directory, open '([^']+)'|failed to read `([^`]+)`/;
/** A version specifier (a protocol) the resolver does not understand. */
const UNSUPPORTED_SPEC = /Unsupported URL Type "([^"]+)":\s*(\S+)/;

export function dependencySteps(f: Finding, lineText?: (n: number) => string | undefined): RemedyStep[] {
  const m = at(f.message_line);
  const general = (text: string): RemedyStep[] => [{ text, lines: [], yieldsToWording: true }];
  const named = f.dependency ?? /\bverifying (\S+@\S+?):/.exec(f.message)?.[1];
  const dep = named ? inlineCode(named) : 'the dependency';
  // Go: the module found at a required (or replaced) path names another path in its own go.mod.
  const declared = /\bmodule declares its path as: (\S+)/.exec(f.message);
  if (declared) {
    return general(`The module the build fetched declares its own path as ${inlineCode(declared[1] as string)} in its \`go.mod\`, not the path it was required by (\`but was required as\`, below it) ${m}: require and import it by its declared path in \`go.mod\` (or point the \`replace\` directive at the module that has the required path), then run \`go mod tidy\`.`);
  }
  if (CONFLICT.test(f.message)) {
    const where = /\bbut you have\b|conflicts with direct dependency/i.test(f.message) ? 'the message names which package asks for which version' : 'the lines under the message name which package asks for which version';
    return general(`The requirements ask for versions that cannot be installed together ${m}: ${where}; change one of the pins (or constraints) so they agree, or move both to releases that fit together.`);
  }
  if (LOCK_STALE.test(f.message)) {
    return general(`The lock file (or vendored copy) no longer matches the project's manifest, and this command may not update it ${m}: run ${updateOf(f)} locally and commit what it rewrites together with the manifest change.`);
  }
  if (CHECKSUM.test(f.message)) {
    return general(`What the build downloaded or read for ${dep} differs from the checksum the project recorded for it ${m}: the same version's content changed (re-published or replaced at the source, or a proxy or mirror serves other bytes, or a vendored file was edited). Find out which side changed before trusting it; update the recorded checksum only once the new content is known to be the right one.`);
  }
  const local = LOCAL_PATH.exec(f.message);
  if (local) {
    const p = (local[1] ?? local[2] ?? local[3]) as string;
    return general(`The build reads ${dep === 'the dependency' ? 'a dependency' : dep} from a local path, ${inlineCode(p)}, which does not exist ${m}: point the manifest at where that file or directory is now (a moved or renamed directory), or add it to the repository or create it before this step.`);
  }
  const spec = UNSUPPORTED_SPEC.exec(f.message);
  if (spec) {
    return general(`${capitalTool(f)} does not understand the version specifier ${inlineCode(spec[2] as string)} (the ${inlineCode(spec[1] as string)} protocol) ${m}: install with the package manager that does (the one the project's lock file belongs to), or give the dependency a version range or path this tool accepts.`);
  }
  // The error's own object, by Maven's format (fx5): a version range nothing matches; a module's test-jar (`:jar:tests:`).
  const range = /No versions available for ([\w.-]+:[\w.-]+):[\w-]+:(\S+) within specified range/.exec(f.message);
  if (range) {
    const [, ga, r] = range as unknown as [string, string, string];
    // `Failed to collect dependencies at a:b:jar:1 -> g:a:jar:[r)`: another dependency asks for the range.
    const via = / at ([\w.-]+:[\w.-]+):\S+ -> /.exec(f.message)?.[1];
    return general(`No version of ${inlineCode(ga)} within the range ${inlineCode(r)} is in the repository the build resolved from ${m}: ${via ? `the range comes through the dependency ${inlineCode(via)}, so pin ${inlineCode(ga)} to a version that repository has in \`pom.xml\`'s \`dependencyManagement\`, or change ${inlineCode(via)}'s version` : `the range is the \`<version>\` of ${inlineCode(ga.split(':')[1] as string)} in \`pom.xml\` (or its \`dependencyManagement\`); pin a version that repository has`}, or make a matching version available there.`);
  }
  const tests = /Could not find artifact ([\w.-]+):([\w.-]+):(?:test-)?jar:tests:(\S+?)(?:\s|$)/.exec(f.message);
  if (tests) {
    const [, g, a, v] = tests as unknown as [string, string, string, string];
    return general(`${inlineCode(`${g}:${a}:jar:tests:${v}`)} is the test-jar of the module ${inlineCode(a)} (its test classes, classifier \`tests\`) ${m}: that module builds it only with the \`maven-jar-plugin\` goal \`test-jar\` in its \`pom.xml\`, and the reactor must build it first: add the goal there if it is missing, and build both modules together (\`mvn -pl <this module> -am ...\`) or install ${inlineCode(a)} first.`);
  }
  const off = offlineLine(f, lineText);
  const offline = off !== undefined;
  // Where the log says it ran offline, when that is not the message line.
  const ranOff = off !== undefined && off !== f.message_line ? ` ${at(off)}` : '';
  switch (f.tool) {
    case 'maven':
      return general(offline
        ? `Maven ran offline (\`-o\`)${ranOff} and ${dep} is not in the local repository ${m}: run the build once online (or \`mvn dependency:go-offline\`) to fill \`~/.m2\`, or drop \`-o\` from the command.`
        : `Check that ${dep} exists in the repository the build uses (the name and version in \`pom.xml\`, and the repositories and mirrors in \`settings.xml\`) ${m}.`);
    case 'gradle':
      return general(`Check that ${dep} is published in the repositories \`build.gradle\` declares (a typo, an unreleased version) ${m}.`);
    case 'npm':
      return general(offline ? `npm ran from its cache only${ranOff} and ${dep} is not in it ${m}: install once with network access, or remove the offline flag.` : `Check the package name and version: \`npm view ${f.dependency?.replace(/@[^@]*$/, '') ?? '<package>'} versions\` lists what the registry has ${m}.`);
    case 'pip':
      return general(`No release of ${dep} matches what the requirements ask for: pick a version that exists (\`pip index versions ${f.dependency?.split(/[=<>!~]/)[0] ?? '<package>'}\` lists them) and fix the pin in the requirements file ${m}.`);
    case 'cargo':
      return general(offline ? `Cargo ran offline${ranOff} and ${dep} is not in the local registry cache ${m}: run \`cargo fetch\` with network access once (or \`cargo vendor\` the crates into the repository), or drop \`--offline\`.` : `Check the crate name and version in \`Cargo.toml\` (\`cargo search\`) ${m}.`);
    case 'go':
      return general(`Add the module (\`go get\`) or fix the import path, then \`go mod tidy\` so \`go.mod\`/\`go.sum\` list it ${m}.`);
    case 'cmake':
      return general(`Install the development package of ${dep} on the agent, or tell CMake where it is (\`-D${f.dependency ?? 'Pkg'}_DIR=...\` / \`CMAKE_PREFIX_PATH\`) ${m}.`);
    case 'python':
      return general(`Install ${dep} in the build's environment (add it to the requirements file), or fix the import if the module was renamed ${m}.`);
    default:
      return general(`Check that ${dep} exists under that name and version in the repository the build uses ${m}.`);
  }
}

/** The command that rewrites the tool's lock file or vendor directory from its manifest. */
function updateOf(f: Finding): string {
  if (/inconsistent vendoring/.test(f.message)) return '`go mod vendor`';
  const by: Record<string, string> = { cargo: '`cargo update --workspace`', npm: '`npm install`', go: '`go mod tidy`', poetry: '`poetry lock`', yarn: '`yarn install`', pnpm: '`pnpm install`' };
  return (f.tool ? by[f.tool] : undefined) ?? "the tool's update (`cargo update`, `npm install`, `go mod tidy`, `poetry lock`)";
}

const capitalTool = (f: Finding): string => (f.tool ? inlineCode(f.tool) : 'The resolver');
