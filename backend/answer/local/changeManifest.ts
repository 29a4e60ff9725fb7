/**
 * The manifest a failing dependency resolver read, changed by the commit (session 57, helper ux19; issue 25): `mix
 * deps.get`, `npm ci`, `pip install -r requirements.txt`, `cargo build`, `go mod download`, `mvn`, `gradle`, `bundle
 * install`, `composer install` failed resolving dependencies, and the change edited the files that tool resolves from
 * (mix.exs, package.json and its lock, requirements*.txt, Cargo.toml/lock, go.mod/sum, pom.xml, build.gradle(.kts),
 * Gemfile(.lock), composer.json/lock). The change block shows those hunks (the dependency lines the change wrote) as
 * the first suspect, not a proof, instead of "Nothing here shows it caused the failure".
 */
import type { CiContext, Finding } from '../../../protocol/types.js';
import { blocksOf, changesOf, type ManifestChange } from './changeDiff.js';

/** A resolver's commands and the files it resolves from: its manifests, then its locks. */
interface Resolver {
  tool: string;
  command: RegExp;
  manifests: RegExp;
  locks: RegExp;
}

const RESOLVERS: Resolver[] = [
  { tool: 'mix', command: /(?:^|\s)mix\s+(?:deps\.get|deps\.compile|deps\.update|compile|test|release|escript\.build)\b/, manifests: /(?:^|\/)mix\.exs$/, locks: /(?:^|\/)mix\.lock$/ },
  { tool: 'npm', command: /(?:^|\s)(?:npm\s+(?:ci|install|i|update)|yarn(?:\s+install)?|pnpm\s+(?:install|i))(?:\s|$)/, manifests: /(?:^|\/)package\.json$/, locks: /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml)$/ },
  { tool: 'pip', command: /(?:^|\s)(?:pip3?|python3?\s+-m\s+pip|uv\s+pip)\s+install\b/, manifests: /(?:^|\/)(?:requirements[\w.-]*\.(?:txt|in)|constraints[\w.-]*\.txt|setup\.py|setup\.cfg|pyproject\.toml)$/, locks: /(?:^|\/)(?:poetry\.lock|uv\.lock|Pipfile\.lock)$/ },
  { tool: 'poetry', command: /(?:^|\s)(?:poetry\s+(?:install|lock|update)|pipenv\s+install|uv\s+sync)\b/, manifests: /(?:^|\/)(?:pyproject\.toml|Pipfile)$/, locks: /(?:^|\/)(?:poetry\.lock|uv\.lock|Pipfile\.lock)$/ },
  { tool: 'cargo', command: /(?:^|\s)cargo\s+(?:build|fetch|test|check|run|update|generate-lockfile|install)\b/, manifests: /(?:^|\/)Cargo\.toml$/, locks: /(?:^|\/)Cargo\.lock$/ },
  { tool: 'go', command: /(?:^|\s)go\s+(?:mod\s+(?:download|tidy|verify)|build|test|get|install|run|vet)\b/, manifests: /(?:^|\/)go\.mod$/, locks: /(?:^|\/)go\.sum$/ },
  { tool: 'mvn', command: /(?:^|\s)(?:\S*\/)?(?:mvn|mvnw)\b/, manifests: /(?:^|\/)pom\.xml$/, locks: /$^/ },
  { tool: 'gradle', command: /(?:^|\s)(?:\S*\/)?(?:gradle|gradlew)\b/, manifests: /(?:^|\/)(?:build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|libs\.versions\.toml)$/, locks: /(?:^|\/)gradle\.lockfile$/ },
  { tool: 'bundler', command: /(?:^|\s)bundle(?:\s+(?:install|update|exec)|\s*$)/, manifests: /(?:^|\/)(?:Gemfile|[\w.-]+\.gemspec)$/, locks: /(?:^|\/)Gemfile\.lock$/ },
  { tool: 'composer', command: /(?:^|\s)composer(?:\.phar)?\s+(?:install|update|require)\b/, manifests: /(?:^|\/)composer\.json$/, locks: /(?:^|\/)composer\.lock$/ },
];

/**
 * The manifest change behind a dependency-resolution finding: the failing command is a resolver and the change's
 * diffs hold its manifest or lock; undefined otherwise (another class, a command that resolves nothing, a change to
 * other files).
 */
export function manifestChange(ci: CiContext, f: Finding, command: { command: string; line: number } | undefined): ManifestChange | undefined {
  const w = changesOf(ci);
  if (f.class !== 'dependency-resolution' || !w || !command || command.line > f.message_line) return undefined;
  const r = RESOLVERS.find((x) => x.command.test(command.command));
  if (!r) return undefined;
  const changed = [...new Set(w.diffs.filter((d) => blocksOf(d).length > 0).map((d) => d.path))];
  const paths = [...changed.filter((p) => r.manifests.test(p)), ...changed.filter((p) => r.locks.test(p))];
  return paths.length > 0 ? { tool: r.tool, command: { line: command.line, text: command.command }, paths } : undefined;
}
