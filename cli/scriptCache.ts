/**
 * A CommonJS bundle run through V8's code cache (issue 28). Node 20 caches no compiled code for
 * ES modules, and `cichat analyze` of a log spends part of its time compiling the analyzer's
 * functions, each at its first call. scripts/bundle-cli.mjs writes the analyzer as a CommonJS
 * file (dist/cli/analyzerScript.cjs) and, next to it, V8's cached data of that script taken after
 * analysing a small log (the functions an analysis runs are then in it, compiled); the
 * analyzer's module, dist/cli/analyzer.js, loads the script here and exports what it exports.
 *
 * V8 checks the cached data against its own version and flags, but the source only by its length:
 * data of a rebuilt bundle of the same length would run the old functions. The cache file
 * therefore begins with the SHA-256 of the source it was made from (`cacheFileData`), and data
 * of another source is not given to V8. Data that does not fit (another Node, other V8 flags, a
 * rebuilt bundle) is refused, and the script is compiled as it would have been without it.
 * Nothing is written at run time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';

export interface LoadedScript {
  /** What the bundle exported (`module.exports`). */
  exports: Record<string, unknown>;
  /** The compiled script: `createCachedData()` after it ran gives what `cacheFile` should hold. */
  script: vm.Script;
  /** Whether the cached data was refused, for another source or by V8 (undefined: there was none). */
  cacheRejected: boolean | undefined;
  /** The SHA-256 of the source. */
  hash: Buffer;
}

const HASH_BYTES = 32;

type ModuleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }) => void;

/**
 * Runs `file` (a CommonJS bundle whose `require`s are Node's built-in modules or packages) as
 * Node would, with `cacheFile`'s cached data if there is such a file. The wrapper adds nothing
 * before the source's first line, so line numbers in stack traces are the file's.
 */
export function loadScript(file: string, cacheFile?: string): LoadedScript {
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const hash = createHash('sha256').update(bytes).digest();
  let stored: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      stored = readFileSync(cacheFile);
    } catch {
      // No cached data (not built, or removed): compiled as usual.
    }
  }
  const cachedData = stored !== undefined && stored.length > HASH_BYTES && hash.equals(stored.subarray(0, HASH_BYTES)) ? stored.subarray(HASH_BYTES) : undefined;
  // Strict, as the ES modules it was bundled from.
  const script = new vm.Script(`(function (exports, require, module) {'use strict';${source}\n})`, {
    filename: file,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as ModuleFunction)(module.exports, createRequire(file), module);
  return { exports: module.exports, script, hash, cacheRejected: stored === undefined ? undefined : cachedData === undefined || script.cachedDataRejected === true };
}

/** What a cache file of `loaded`'s script holds: the source's hash, then V8's data of the functions compiled so far. */
export function cacheFileData(loaded: LoadedScript): Buffer {
  return Buffer.concat([loaded.hash, loaded.script.createCachedData()]);
}
