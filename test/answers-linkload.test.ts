/**
 * Session 48 (helper lk1, issue 25): the answers tell a linker's refusal from a loader's, and the fix finds the renamed
 * definition. Each log is a tool's real output (test/fixtures/linkload/make.sh), each workspace the tiny project it ran
 * on (its src/<id>/). Before: a loader's refusal read "the linker (`python`) could not find a definition" (and `ld` for
 * glibc's own `symbol lookup error`), and the fix listed the compiled files without naming `unit_scale` or its header.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { snippetsFromDir } from '../cli/snippets.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const DIR = path.join(process.cwd(), 'test', 'fixtures', 'linkload');

async function answer(question: string, id: string, changes?: { message: string }[]): Promise<string> {
  const log = readFileSync(path.join(DIR, `${id}.log`), 'utf8');
  const snippets = await snippetsFromDir(path.join(DIR, 'src', id), log);
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log, ...(changes ? { changes } : {}) }, ...(snippets.length > 0 ? { workspaceSnippets: snippets } : {}) } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(question, ctx)).text;
  expect(checkAnswer(question, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

const meaning = (why: string): string => /\*\*What it means:\*\*([^\n]*)/.exec(why)?.[1] ?? '';

describe('a loader refused the shared object: no sentence calls it the linker\'s', () => {
  it.each([
    ['load-python-ctypes', /Python loaded it and the dynamic loader found no definition of `scale_of`/],
    ['load-python-extension', /Python loaded it and the dynamic loader found no definition of `scale_of`/],
    ['load-symbol-lookup', /`build\/libchecksum\.so` was loaded, not while it was built: the dynamic loader found no definition of `scale_of`/],
    ['load-node-addon', /Node loaded it and the dynamic loader found no definition of `scale_table`/],
    ['load-missing-lib', /`build\/app` was run, not while it was built: the dynamic loader could not find the shared library `libchecksum\.so`/],
  ])('%s', async (id, said) => {
    const why = await answer('Why did the build fail?', id);
    expect(meaning(why)).toMatch(said);
    expect(meaning(why)).not.toMatch(/linker|`ld`|\bld\b/);
    const fix = await answer('How do I fix it?', id);
    expect(fix).toMatch(/How to fix a shared library the loader refused/);
    expect(fix).not.toMatch(/the linker \(|on the agent or run the step where it exists|`which libchecksum/);
  });

  it("a library the build made where the loader does not look: the line that made it and the loader's path", async () => {
    const fix = await answer('How do I fix it?', 'load-missing-lib');
    expect(fix).toMatch(/The build made `build\/libchecksum\.so` \[L8-L8\], but the loader does not look in `build`.*`LD_LIBRARY_PATH=build`/);
  });
});

describe("Java's UnsatisfiedLinkError: the library path, or the JNI function a native method needs", () => {
  it('a library in no directory of java.library.path: not the classpath', async () => {
    const fix = await answer('How do I fix it?', 'load-java-library-path');
    // Since t25 (session 50) a link error: the library's own step, not the raise site's sentence (loadRemedy.ts loadSteps).
    expect(fix).toMatch(/`libchecksum\.so` is neither built by this log nor found where Java looks/);
    expect(fix).toMatch(/no checksum in java\.library\.path/);
    expect(fix).toMatch(/`-Djava\.library\.path=<dir>`/);
    expect(fix).not.toMatch(/classpath|dynamic loader refused/);
  });

  it('a native method: the C function JNI looks for', async () => {
    const fix = await answer('How do I fix it?', 'load-java-native-method');
    expect(fix).toMatch(/Java looks up the C function `Java_checksum_Checksum_valid` for the native method `checksum\.Checksum\.valid` \[L11-L11\]/);
    expect(fix).not.toMatch(/classpath|dynamic loader refused/);
    // The C function the library defines instead (native/checksum.c: the class's old package), named like it.
    expect(fix).toContain('`native/checksum.c:2` defines `Java_luhn_Checksum_valid`, a name like it: if that is the function meant, give it the name `Java_checksum_Checksum_valid`');
    const why = await answer('Why did the build fail?', 'load-java-native-method');
    expect(meaning(why)).toMatch(/Java found no C function `Java_checksum_Checksum_valid` in the native libraries it had loaded for the method `checksum\.Checksum\.valid`/);
  });
});

describe('a loader refused it and the workspace defines the symbol: the library it loaded lacks it, no link is named', () => {
  it('load-symbol-lookup', async () => {
    const fix = await answer('How do I fix it?', 'load-symbol-lookup');
    expect(fix).toMatch(/`src\/scale_v1\.c:1` defines `scale_of`, so the code exists, but neither `build\/libchecksum\.so` nor a library the loader loaded with it holds it/);
    expect(fix).not.toMatch(/compiled into this link/);
  });
});

describe("a linker refused it: which linker, by its own name", () => {
  it.each([
    ['link-gold-undefined', /the linker \(`gold`\) could not find a definition of `scale_of`/],
    ['link-lld-undefined', /the linker \(`ld\.lld`\) could not find a definition of `scale_of`/],
    ['link-rustc-undefined', /the linker \(`rust-lld`\) could not find a definition of `scale_of`/],
    ['link-go-linkname', /the linker \(`go`\) could not find a definition of `example\.com\/checksum\/scale\.scaleOf`/],
  ])('%s', async (id, said) => {
    expect(meaning(await answer('Why did the build fail?', id))).toMatch(said);
  });
});

describe('the fix finds the renamed definition: the caller of the old name, the new one and its header', () => {
  it.each(['load-python-ctypes', 'link-ld-undefined', 'link-ld-undefined-debug', 'link-lld-undefined', 'link-gold-undefined', 'link-cgo-undefined'])('%s', async (id) => {
    const fix = await answer('How do I fix it?', id);
    const file = id === 'link-cgo-undefined' ? '' : 'src/';
    expect(fix).toContain(`**The definition it may have become:** no C or C++ file of the workspace defines or declares \`scale_of\`, and \`${file}checksum.c:10\` still calls it. \`${file}scale.c:3\` defines \`unit_scale\`, declared at \`${file}scale.h:4\`: if \`scale_of\` was renamed \`unit_scale\`, call \`unit_scale\` at \`${file}checksum.c:10\``);
  });

  it('a name the change\'s commit message mentions is said so', async () => {
    const fix = await answer('How do I fix it?', 'load-python-ctypes', [{ message: 'Rename scale_of to unit_scale' }]);
    expect(fix).toContain("defines `unit_scale` (a name the change's commit message mentions), declared at `src/scale.h:4`");
  });

  it('counter-example: a versioned library symbol (`sqrt@@GLIBC_2.2.5`) is no renamed project function', async () => {
    const fix = await answer('How do I fix it?', 'link-ld-dso-missing');
    expect(fix).not.toMatch(/The definition it may have become|No definition like it/);
    expect(fix).toMatch(/`-lm`/);
  });
});
