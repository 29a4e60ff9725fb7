/**
 * What core/finding/classModelTable.ts was made from: `classModelTable.stamp` beside it holds a hash
 * of every input of `modelSource(await modelCases())` at the time the table was written, and a hash
 * of the table written. The inputs: the source of every module that computation loads (the import
 * graph of scripts/classModelData.ts, static and dynamic, as esbuild follows it, the table's own
 * module left out; packages by package-lock.json) and the bytes of each case it reads (the tuned cases'
 * expected.json, fail.log and pass.log: a held-out case is never read); Node's version stands beside that hash. The making is
 * deterministic, so while both hashes hold, the table is what `npm run class-model` would make now,
 * and the staleness test (test/findings-realfail.test.ts) need not analyse ~1,000 logs again to
 * know it (5-7 CPU-s of a cold `npm test`: docs/notes/house.md, "`npm test` time", eleventh
 * session). When either differs (a source or a case changed since, the table edited) the test makes
 * the table afresh and compares, as before. `npm run class-model` and `npm run gates` write the stamp
 * with the table; test/class-model-stamp.test.ts shows what changes it, and fails, naming the command, when the
 * landed stamp does not hold for the code and cases here (`stampProblem`: Node's version aside, so a clone on another
 * Node passes it, and only its staleness test makes the table again).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HELDOUT_ROUND } from '../bench/findings.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The generated table and its stamp. */
const TABLE_FILE = path.join(ROOT, 'core/finding/classModelTable.ts');
export const STAMP_FILE = path.join(ROOT, 'core/finding/classModelTable.stamp');
/** The module whose import graph makes the table. */
const ENTRY = 'scripts/classModelData.ts';

/** The table's own module: the making's graph reaches it (classModel.ts reads it), but it is what the making writes. */
export const TABLE_MODULE = 'core/finding/classModelTable.ts';

/**
 * Our source files (repository-relative) that `entry` loads, itself included, sorted: the imports esbuild follows
 * (static, dynamic with a literal path, re-exports; `import type` loads nothing), packages left out (package-lock.json
 * stands for them). The table's own module is left out: the making never reads the landed table (a finding's
 * `likely_class` is not among the model's tokens), and the stamp holds the table's hash apart, so writing a new table
 * does not change the inputs it was made from.
 */
export async function modelModules(root = ROOT, entry = ENTRY): Promise<string[]> {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    outdir: 'out',
  });
  return Object.keys(result.metafile.inputs).filter((f) => f !== TABLE_MODULE).sort();
}

/** The case files the table is made of (repository-relative, sorted): each tuned case's expected.json, fail.log, pass.log. */
export function modelCaseFiles(root = ROOT): string[] {
  const dir = path.join(root, 'test/fixtures/realfail');
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const expected = path.join(dir, name, 'expected.json');
    if (!existsSync(expected)) continue;
    // As bench/findings.ts loadRealCases reads the listing: a held-out round's case is left as soon as its round is read.
    const round = (JSON.parse(readFileSync(expected, 'utf8')) as { round?: unknown }).round;
    if (typeof round === 'number' && round >= HELDOUT_ROUND) continue;
    for (const f of ['expected.json', 'fail.log', 'pass.log']) files.push(path.relative(root, path.join(dir, name, f)));
  }
  return files;
}

/** A hash of the inputs: each file's path and bytes (`read` gives them; a missing file counts as missing). */
export function inputsHash(files: readonly string[], read: (file: string) => Buffer | string | undefined): string {
  const hash = createHash('sha1');
  for (const f of files) hash.update(f).update('\0').update(read(f) ?? '\u0001missing').update('\0');
  return hash.digest('hex');
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

/** The hash of the inputs under `root` now. */
export async function inputsNow(root = ROOT): Promise<string> {
  const files = ['package-lock.json', ...(await modelModules(root)), ...modelCaseFiles(root)];
  const read = (f: string): Buffer | undefined => (existsSync(path.join(root, f)) ? readFileSync(path.join(root, f)) : undefined);
  return inputsHash(files, read);
}

/** The stamp of `table` made from inputs of hash `inputs` on Node `node`. */
export const stampOf = (table: string, inputs: string, node = process.version): string => `inputs ${inputs} node ${node} table ${sha1(table)}\n`;

/** What a stale stamp costs and how to mend it: the words of every failure `stampProblem` gives. */
const REMAKE = 'so every `npm test` makes the class model again (~45 CPU-s). Run `npm run class-model` (or `npm run gates`) and commit core/finding/classModelTable.ts and its .stamp';

/**
 * Why the stamp `stamp` (undefined: no stamp file) does not hold for `table` and inputs of hash `inputs`, Node's
 * version aside (a clone on another Node has a stamp that holds here and not in `stampHolds`); undefined when it holds.
 */
export function stampProblem(stamp: string | undefined, table: string, inputs: string): string | undefined {
  if (stamp === undefined) return `core/finding/classModelTable.stamp is missing, ${REMAKE}`;
  const m = /^inputs (\w+) node (\S+) table (\w+)\n?$/.exec(stamp);
  if (!m) return `core/finding/classModelTable.stamp is not of the form \`inputs <hash> node <version> table <hash>\`, ${REMAKE}`;
  if (m[1] !== inputs) return `core/finding/classModelTable.stamp is stale: a module the class model is made from (core/finding, core/log, protocol, scripts/classModelData.ts...), package-lock.json or a tuned case changed since the table was made, ${REMAKE}`;
  if (m[3] !== sha1(table)) return `core/finding/classModelTable.ts was changed by hand since its stamp was written, ${REMAKE}`;
  return undefined;
}

/**
 * Writes the table `make` gives, and its stamp when no input changed while it was made (else no
 * stamp: the staleness test then makes the table afresh to compare). `inputsBefore`: the inputs'
 * hash taken before the caller began making it.
 */
export async function writeTable(make: () => Promise<string>, inputsBefore?: string): Promise<void> {
  const before = inputsBefore ?? (await inputsNow());
  const table = await make();
  writeFileSync(TABLE_FILE, table);
  if ((await inputsNow()) === before) writeFileSync(STAMP_FILE, stampOf(table, before));
  else rmSync(STAMP_FILE, { force: true });
}

/** The landed stamp and table (the stamp undefined when there is none). */
export function landed(): { stamp: string | undefined; table: string } {
  return { stamp: existsSync(STAMP_FILE) ? readFileSync(STAMP_FILE, 'utf8') : undefined, table: readFileSync(TABLE_FILE, 'utf8') };
}

/** Whether the table on disk was written from exactly the inputs there are now, on this Node (then it is what they make). */
export async function stampHolds(): Promise<boolean> {
  const { stamp, table } = landed();
  return stamp === stampOf(table, await inputsNow());
}
