/**
 * A Go module go went to the network for at version `v0.0.0` (ux12, go-shipping): `rates.go:7:2:
 * example.com/shipping/rates@v0.0.0: Get "https://proxy.golang.org/...": dial tcp: lookup ...`.
 * `v0.0.0` is no release a proxy serves (a pseudo-version carries a date and a commit after it:
 * `v0.0.0-20240101120000-abcdef123456`): it is the version a `require` gives a module that the
 * repository holds in a directory, found through go.work's `use` or a go.mod `replace`. go
 * fetching it means it did not find that directory, so reaching the host would not fix the build.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode } from '../logtext.js';

/** The module (`example.com/shipping/rates`) of a go finding whose dependency is `<module>@v0.0.0`, else undefined. */
export function goLocalModule(f: Finding): string | undefined {
  if (f.tool !== 'go' || (f.class !== 'network' && f.class !== 'dependency-resolution')) return undefined;
  // Only when go went to its module proxy for it (`Get "https://..."`, `reading file:///...`): a `replace` whose
  // directory is missing names the same version, and is another fix (dependencySteps.ts).
  if (!/@v0\.0\.0: (?:Get|reading) \S+: /.test(f.message)) return undefined;
  const m = /^([\w.~/-]+)@v0\.0\.0$/.exec(f.dependency ?? '');
  return m?.[1];
}

/** The step that says so, citing the line (`cited`: "[L22-L22]"). */
export function goLocalModuleStep(module: string, cited: string): string {
  return (
    `go looked for ${inlineCode(`${module}@v0.0.0`)} through its module proxy ${cited}, and \`v0.0.0\` is no published version (a pseudo-version has a date and a commit after it): ` +
    'it is the version a `require` gives a module that the repository holds in a directory, which go takes from there through a `use` line of `go.work` or a `replace` of `go.mod`. ' +
    'So go did not find that directory: check that `go.work` `use`s (or a `replace` points at) the directory of every module of the repository the build imports, ' +
    `one added by the change among them (${inlineCode('go work use ./DIR')}). A proxy has only published versions, so reaching it would not help.`
  );
}
