/**
 * Round 7's place forms (places.ts, frames.ts): each read without naming a tool, on made-up lines
 * of tools no case has; and the counter-examples each form must not take.
 */
import { analyze } from '../log/analyze.js';
import { ownStack, framesOf, tracesIn } from './frames.js';
import type { Finding } from '../../protocol/types.js';
import { placeIn, placeNear, withPlace } from './places.js';

describe('round 7 forms of a place on one line', () => {
  it.each([
    ['a severity label of two words before the place, a column range after', 'STATIC ERROR: conf/app.dhall:4:3-9: Unknown variable: port', { file: 'conf/app.dhall', line: 4, column: 3 }],
    ['a bracketed time and a `%Error:` label', '[120] %Error: rtl/fifo.sv:33: Assertion failed in TOP.fifo', { file: 'rtl/fifo.sv', line: 33 }],
    ['a program and a space before the place', 'roffcheck: doc/tool.8:40:1: WARNING: new sentence, new line', { file: 'doc/tool.8', line: 40, column: 1 }],
    ["a manual page's section as the extension", 'man/backup.5:7: bad escape', { file: 'man/backup.5', line: 7 }],
    ['the place a report traces its error back to wins', 'gen/api.idl:40: 0: error: unknown type: Amount, originally at: gen/api.idl:9', { file: 'gen/api.idl', line: 9 }],
  ])('%s', (_what, line, place) => {
    expect(placeIn(line)).toEqual(place);
  });

  it.each([
    ['a version with a section-like ending', 'Python 3.1: deprecated option'],
    ['a version after a v', 'using v2.1:4 of the schema'],
    ['a severity label with no place after it', 'ERROR: script returned exit code 2'],
  ])('takes no place from %s', (_what, line) => {
    expect(placeIn(line)).toBeUndefined();
  });
});

describe('a call history with its current call marked', () => {
  const near = (lines: string[], m: number) => placeNear((i) => lines[i] ?? '', lines.length, m);
  it('gives the marked row, not the first row of the history', () => {
    const lines = ['Error: unbound variable: pad-left', '', '\tCall history:', '', '\tlib/fmt.scm:21: main\t  ', '\tlib/fmt.scm:12: fmt-row\t  ', '\tlib/fmt.scm:5: pad-left\t  \t<--'];
    expect(near(lines, 4)).toMatchObject({ file: 'lib/fmt.scm', line: 5, index: 6 });
  });
  it('gives the first row of a history that marks none', () => {
    const lines = ['Error: unbound variable: pad-left', '\tlib/fmt.scm:21: main', '\tlib/fmt.scm:12: fmt-row'];
    expect(near(lines, 0)).toMatchObject({ file: 'lib/fmt.scm', line: 21, index: 1 });
  });
  it('moves a finding read on the first row to the marked row', () => {
    const log = ['+ ./report', '[panic] out of memory - heap full - execution terminated', '', '...more...', 'src/agg.scm:30: loop', 'src/agg.scm:14: fold-rows', 'src/agg.scm:9: string-append \t<--'].join('\n');
    expect(analyze(log)[0]?.finding?.location).toMatchObject({ file: 'src/agg.scm', line: 9, log_line: 7 });
  });
});

describe("the message's own stack", () => {
  const stack = [
    'not ok 1 cart > totals',
    '  message: |+',
    "    Died on test #1: Cannot read properties of null (reading 'qty')",
    '        at Object.<anonymous> (/ws/shop/test/cart.test.js:9:3)',
    '  stack: |',
    "    TypeError: Cannot read properties of null (reading 'qty')",
    '        at qtyOf (/ws/shop/src/cart.js:12:20)',
    '        at Object.<anonymous> (/ws/shop/test/cart.test.js:9:3)',
  ];
  const trace = tracesIn(stack, 1).find((t) => t.kind === 'node');
  it('takes the frames under the message, not an earlier pointer', () => {
    expect(trace).toBeDefined();
    if (!trace) return;
    expect(framesOf(ownStack(trace, 6)).project).toMatchObject({ file: '/ws/shop/src/cart.js', line: 12 });
    expect(framesOf(trace).project).toMatchObject({ file: '/ws/shop/test/cart.test.js', line: 9 });
  });
  it("keeps the stack that reached a cause whose own frames are the runtime's", () => {
    const cause = ['TypeError: fetch failed', '    at async file:///ws/app/sync.mjs:6:15 {', '  [cause]: Error: getaddrinfo ENOTFOUND db.internal', '      at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26) {'];
    const t = tracesIn(cause, 1).find((x) => x.kind === 'node');
    expect(t).toBeDefined();
    if (!t) return;
    expect(framesOf(ownStack(t, 3)).project).toMatchObject({ file: '/ws/app/sync.mjs', line: 6 });
  });
});

describe("make's verdict on a link step", () => {
  it('gives no place: the recipe line is not where a linker failed', () => {
    const log = ['+ make', 'msp430-elf-gcc -o boot.elf src/boot.o src/uart.o', '/opt/msp/bin/ld: address 0x2402 of boot.elf section `.bss\' is not within region `RAM\'', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:12: boot.elf] Error 1'].join('\n');
    expect(analyze(log)[0]?.finding?.location).toBeUndefined();
  });
  it("keeps make's recipe line over a command's own failure", () => {
    const log = ['+ make check', './run-checks.sh --strict', 'run-checks.sh: 3 checks failed', 'make: *** [Makefile:9: check] Error 1'].join('\n');
    expect(analyze(log)[0]?.finding?.location).toMatchObject({ file: 'Makefile', line: 9 });
  });
});

describe('a check that the output equals the input', () => {
  it('gives the line where they first differ, named on a row of its report', () => {
    const log = ['+ fmtcheck --assert lib/Shop/Cart.pm', 'lib/Shop/Cart.pm:41: assertion failure: output differs from input', 'lib/Shop/Cart.pm: Files first differ at character 5 of line 17', 'lib/Shop/Cart.pm: <17:my $x=1;'].join('\n');
    expect(analyze(log)[0]?.finding?.location).toMatchObject({ file: 'lib/Shop/Cart.pm', line: 17, log_line: 3 });
  });
  it("does not take another file's difference", () => {
    const log = ['+ fmtcheck --assert lib/Shop/Cart.pm', 'lib/Shop/Cart.pm:41: assertion failure: output differs from input', 'lib/Shop/Tax.pm: Files first differ at character 5 of line 17'].join('\n');
    expect(analyze(log)[0]?.finding?.location).toMatchObject({ file: 'lib/Shop/Cart.pm', line: 41 });
  });
});

describe("the step's one error place when the message is the CI's exit line", () => {
  const near = (lines: string[]) => placeNear((i) => lines[i] ?? '', lines.length, lines.length - 1);
  it('gives the one place the step printed with an error', () => {
    expect(near(['+ gen-config --strict', 'conf/site.toml:9: error: duplicate key "port"', '[Pipeline] }', 'ERROR: script returned exit code 2'])).toMatchObject({ file: 'conf/site.toml', line: 9, index: 1 });
  });
  it('gives none for two error places, a place without an error, or output before the last command', () => {
    expect(near(['+ gen-config', 'a.toml:1: error: x', 'b.toml:2: error: y', 'ERROR: script returned exit code 2'])).toBeUndefined();
    expect(near(['+ gen-config', 'wrote conf/site.toml:9 entries', '##[error]Process completed with exit code 1.'])).toBeUndefined();
    expect(near(['conf/site.toml:9: error: x', '+ deploy', 'ERROR: script returned exit code 2'])).toBeUndefined();
  });
});

describe("a lone place over the error's words", () => {
  const lines = ['+ tmplcheck --fail-on-warnings', '====================================', 'src/views/Cart.tmpl:14:3', "Error: Unknown filter 'money' (tmpl)", '', '1 error'];
  const finding = (message_line: number): Finding => ({
    class: 'compile-error',
    message: lines[message_line - 1] as string,
    message_line,
    evidence: [message_line],
    location: { file: 'src/views/Cart.tmpl', line: 14, column: 3, log_line: 3 },
  } as unknown as Finding);
  const place = (f: Finding): Finding => withPlace(f, lines, { start_line: 1, end_line: lines.length }, (i) => lines[i] ?? '');
  it('takes the words below as the message and keeps the place', () => {
    const f = place(finding(3));
    expect(f.message).toBe("Error: Unknown filter 'money' (tmpl)");
    expect(f.message_line).toBe(4);
    expect(f.evidence).toEqual([4, 3]);
    expect(f.location).toMatchObject({ file: 'src/views/Cart.tmpl', line: 14, log_line: 3 });
  });
  it('keeps the message when the line below says no error', () => {
    const other = ['src/views/Cart.tmpl:14:3', 'Checked 12 files'];
    const f = { ...finding(1), message: other[0] } as Finding;
    expect(withPlace(f, other, { start_line: 1, end_line: 2 }, (i) => other[i] ?? '').message_line).toBe(1);
  });
});
