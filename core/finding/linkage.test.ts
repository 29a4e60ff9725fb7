import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../../test/helpers/rulesReading.js';
import { loadReading } from './linkage.js';

/**
 * Session 48 (helper lk1; docs/notes/analyzer.md "Session 48 (helper lk1)"): a linker's refusal and a loader's read
 * alike (`undefined symbol: x`); the finding says which of the two it was (linkage.ts). Every log is a tool's real
 * output, made on this machine by test/fixtures/linkload/make.sh from the tiny projects of its src/ (never by hand).
 * Before linkage.ts no finding had `linkage`, a loader's refusal was the linker's (`tool: 'ld'`), Go's linker was a
 * compile error and ld's `cannot find -lchecksum: No such file or directory` named `-lchecksum:`.
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'linkload');
const top = (id: string) => analyze(readFileSync(path.join(DIR, `${id}.log`), 'utf8'))[0]?.finding;

type Row = [id: string, cls: string, stage: 'link' | 'load', tool: string, symbol: string | undefined, object: string | undefined];

const ROWS: Row[] = [
  // The static linker, while the build linked: which linker, the symbol, the object it names.
  ['link-ld-undefined', 'link-error', 'link', 'ld', 'scale_of', 'build/checksum.o'],
  ['link-ld-undefined-debug', 'link-error', 'link', 'ld', 'scale_of', undefined],
  ['link-gold-undefined', 'link-error', 'link', 'gold', 'scale_of', undefined],
  ['link-lld-undefined', 'link-error', 'link', 'ld.lld', 'scale_of', undefined],
  ['link-ld-multiple-definition', 'link-error', 'link', 'ld', 'verbose', 'build/report.o'],
  ['link-ld-cannot-find-lib', 'link-error', 'link', 'ld', '-lchecksum', undefined],
  ['link-lld-cannot-find-lib', 'link-error', 'link', 'ld.lld', '-lchecksum', undefined],
  ['link-ld-relocation', 'link-error', 'link', 'ld', undefined, undefined],
  ['link-ld-dso-missing', 'link-error', 'link', 'ld', 'sqrt@@GLIBC_2.2.5', 'build/main.o'],
  ['link-gxx-undefined', 'link-error', 'link', 'ld', 'metrics::mean_of(std::vector<double, std::allocator<double> > const&)', 'build/main.o'],
  ['link-lldxx-undefined', 'link-error', 'link', 'ld.lld', 'metrics::mean_of(std::vector<double, std::allocator<double> > const&)', undefined],
  ['link-rustc-undefined', 'link-error', 'link', 'rust-lld', 'scale_of', undefined],
  ['link-cgo-undefined', 'link-error', 'link', 'ld', 'scale_of', undefined],
  ['link-go-linkname', 'link-error', 'link', 'go', 'example.com/checksum/scale.scaleOf', undefined],
  // The dynamic loader, when a program or a runtime loaded what the build had made: what reported it, the object, the symbol or file.
  ['load-missing-lib', 'missing-tool', 'load', 'ld.so', 'libchecksum.so', 'build/app'],
  ['load-symbol-lookup', 'link-error', 'load', 'ld.so', 'scale_of', 'build/libchecksum.so'],
  ['load-python-ctypes', 'link-error', 'load', 'python', 'scale_of', '/tmp/ws/load-python-ctypes/libchecksum.so'],
  ['load-python-extension', 'link-error', 'load', 'python', 'scale_of', '/tmp/ws/load-python-extension/fastsum/_sum.cpython-311-x86_64-linux-gnu.so'],
  ['load-python-ctypes-missing', 'runtime-exception', 'load', 'python', undefined, './build/libchecksum.so'],
  ['load-node-addon', 'link-error', 'load', 'node', 'scale_table', '/tmp/ws/load-node-addon/build/checksum.node'],
  // Java's UnsatisfiedLinkError is a LinkageError whatever it lacked: System.loadLibrary's search (round 24's
  // java-jni-loadlibrary-renamed-output-no-library-path is labelled link-error; runtime-exception before session 50).
  ['load-java-library-path', 'link-error', 'load', 'java', undefined, 'libchecksum.so'],
  // Python's import of an extension that exports no `PyInit_<module>` (built under another module name), as a script's
  // import and under pytest's collection (round 24's pytest-c-extension-module-renamed-pyinit-not-defined; before session
  // 50 a runtime exception and a test error, with no linkage).
  ['load-python-extension-init', 'link-error', 'load', 'python', 'PyInit__native', undefined],
  ['load-python-extension-init-pytest', 'link-error', 'load', 'pytest', 'PyInit__native', undefined],
  // A native method JNI could not bind: a link of native code (round 22's java-jni-package-move row is labelled so), the C function it looked up.
  ['load-java-native-method', 'link-error', 'load', 'java', 'Java_checksum_Checksum_valid', undefined],
];

describe('a linker or a loader: real output of each -> which of the two, the tool, the symbol, the object', () => {
  it.each(ROWS)('%s', (id, cls, stage, tool, symbol, object) => {
    const f = top(id);
    expect([f?.class, f?.linkage?.stage, f?.tool, f?.symbol, f?.linkage?.object]).toEqual([cls, stage, tool, symbol, object]);
  });

  it('no loader refusal names a linker as its tool', () => {
    for (const [id, , stage] of ROWS) if (stage === 'load') expect(top(id)?.tool).not.toMatch(/^(?:ld|ld\.lld|ld\.gold|lld|gold)$/);
  });

  it("a compiler's error and a Go cgo name are neither", () => {
    expect(top('link-go-cgo-name')?.linkage).toBeUndefined();
    expect(top('link-go-cgo-name')?.class).toBe('compile-error');
  });
});

describe('loadReading: the loader\'s words as each runtime reports them', () => {
  it.each([
    ['build/app: error while loading shared libraries: libz.so.1: cannot open shared object file: No such file or directory', { tool: 'ld.so', object: 'build/app', symbol: 'libz.so.1' }],
    ['./app: symbol lookup error: ./app: undefined symbol: weight_at', { tool: 'ld.so', object: './app', symbol: 'weight_at' }],
    ['OSError: /ws/build/libcheck.so: undefined symbol: weight_at', { tool: 'python', object: '/ws/build/libcheck.so', symbol: 'weight_at' }],
    ['E   ImportError: /ws/fastcrc/_crc.cpython-311-x86_64-linux-gnu.so: undefined symbol: crc16_update', { tool: 'python', object: '/ws/fastcrc/_crc.cpython-311-x86_64-linux-gnu.so', symbol: 'crc16_update' }],
    ['ImportError: libfoo.so.1: cannot open shared object file: No such file or directory', { tool: 'python', symbol: 'libfoo.so.1' }],
    ['Exception in thread "main" java.lang.UnsatisfiedLinkError: /ws/lib/libnative.so: /ws/lib/libnative.so: undefined symbol: helper', { tool: 'java', object: '/ws/lib/libnative.so', symbol: 'helper' }],
    ['{{badmatch,{error,{load_failed,"Failed to load NIF library: \'./priv/x.so: cannot open shared object file: No such file or directory\'"}}},', { tool: 'erlang', object: './priv/x.so' }],
  ])('%s', (text, want) => {
    expect(loadReading(text)).toEqual(want);
  });

  it("counter-examples: a linker's own lines are no loader's", () => {
    expect(loadReading('ld.lld: error: undefined symbol: scale_of')).toBeUndefined();
    expect(loadReading("/usr/bin/ld: build/checksum.o: in function `checksum_ok':")).toBeUndefined();
    expect(loadReading("checksum.c:(.text+0x63): undefined reference to `scale_of'")).toBeUndefined();
    expect(loadReading('= note: rust-lld: error: undefined symbol: scale_of')).toBeUndefined();
  });
});
