/** What to do about a dependency that did not resolve, per resolver (the finding's tool): general CI knowledge, cited at the message. */
import type { Finding } from '../../../protocol/types.js';
import { cite, inlineCode } from '../logtext.js';

const at = (line: number): string => cite({ start_line: line, end_line: line });

export function dependencySteps(f: Finding): string[] {
  const m = at(f.message_line);
  const dep = f.dependency ? inlineCode(f.dependency) : 'the dependency';
  const offline = /offline mode|only-if-cached|--offline|offline/i.test(f.message);
  switch (f.tool) {
    case 'maven':
      return offline
        ? [`Maven ran offline (\`-o\`) and ${dep} is not in the local repository: run the build once online (or \`mvn dependency:go-offline\`) to fill \`~/.m2\`, or drop \`-o\` from the command ${m}.`]
        : [`Check that ${dep} exists in the repository the build uses (the name and version in \`pom.xml\`, and the repositories and mirrors in \`settings.xml\`) ${m}.`];
    case 'gradle':
      return [`Check that ${dep} is published in the repositories \`build.gradle\` declares (a typo, an unreleased version) ${m}.`];
    case 'npm':
      return offline ? [`npm ran from its cache only and ${dep} is not in it: install once with network access, or remove the offline flag ${m}.`] : [`Check the package name and version: \`npm view ${f.dependency?.replace(/@[^@]*$/, '') ?? '<package>'} versions\` lists what the registry has ${m}.`];
    case 'pip':
      return [`No release of ${dep} matches what the requirements ask for: pick a version that exists (\`pip index versions ${f.dependency?.split(/[=<>!~]/)[0] ?? '<package>'}\` lists them) and fix the pin in the requirements file ${m}.`];
    case 'cargo':
      return offline ? [`Cargo ran offline and ${dep} is not in the local registry cache: run \`cargo fetch\` with network access once, or drop \`--offline\` ${m}.`] : [`Check the crate name and version in \`Cargo.toml\` (\`cargo search\`) ${m}.`];
    case 'go':
      return [`Add the module (\`go get\`) or fix the import path, then \`go mod tidy\` so \`go.mod\`/\`go.sum\` list it ${m}.`];
    case 'cmake':
      return [`Install the development package of ${dep} on the agent, or tell CMake where it is (\`-D${f.dependency ?? 'Pkg'}_DIR=...\` / \`CMAKE_PREFIX_PATH\`) ${m}.`];
    case 'python':
      return [`Install ${dep} in the build's environment (add it to the requirements file), or fix the import if the module was renamed ${m}.`];
    default:
      return [`Check that ${dep} exists under that name and version in the repository the build uses ${m}.`];
  }
}
