/**
 * Places of session 44 (helper loc4, docs/notes/analyzer.md "Places, session 44"): made-up logs of projects no case
 * has, each with counter-examples.
 */
import { analyze } from '../log/analyze.js';

const findingOf = (log: string[]) => analyze(log.join('\n'))[0]?.finding;

describe("a JVM exception's message that runs on under a blank line, over its frames", () => {
  const surefire = (message: string[]) => [
    '[INFO] Running org.shop.cart.CartTest',
    '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! -- in org.shop.cart.CartTest',
    '[ERROR] org.shop.cart.CartTest.totalsInOrder -- Time elapsed: 0.1 s <<< FAILURE!',
    'java.lang.AssertionError: ',
    ...message,
    '\tat org.shop.cart.CartTest.totalsInOrder(CartTest.java:31)',
    '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
    '',
    '[INFO] BUILD FAILURE',
  ];

  it("reads the frames past AssertJ's blank lines: the test's line is the place", () => {
    const f = findingOf(surefire(['', 'Expecting actual:', '  [3, 1, 2]', 'to contain exactly (and in same order):', '  [1, 2, 3]', '']));
    expect(f?.location).toMatchObject({ file: 'org/shop/cart/CartTest.java', line: 31 });
  });

  it('does not read past a blank line into a frame more than 6 lines below, nor over another exception', () => {
    const far = findingOf(surefire(['', 'Expecting actual:', '  [3, 1, 2]', 'to contain exactly (and in same order):', '  [1, 2, 3]', 'but some elements were not found:', '  [4]', '']));
    expect(far?.location).toBeUndefined();
    const other = findingOf(surefire(['', 'java.lang.IllegalStateException: another failure', '']));
    expect(other?.location?.file).not.toBe('org/shop/cart/CartTest.java');
  });
});

describe("lld's reference under an undefined symbol", () => {
  const link = (rows: string[]) => [
    '+ make',
    'clang -fuse-ld=lld -g -o meter obj/main.o obj/read.o',
    'ld.lld: error: undefined symbol: sensor_read_raw',
    ...rows,
    'clang: error: linker command failed with exit code 1 (use -v to see invocation)',
    'make: *** [Makefile:9: meter] Error 1',
  ];

  it('names the line that refers to it (debug information): the first reference is the place', () => {
    const f = findingOf(link([
      '>>> referenced by main.c:14 (/home/ci/ws/meter/src/main.c:14)',
      '>>>               obj/main.o:(main)',
      '>>> referenced by read.c:7 (src/read.c:7)',
      '>>>               obj/read.o:(poll_once)',
    ]));
    expect(f?.class).toBe('link-error');
    expect(f?.location).toMatchObject({ file: '/home/ci/ws/meter/src/main.c', line: 14 });
  });

  it('gives no place when the reference names a file only (no debug information), or a library\'s', () => {
    expect(findingOf(link(['>>> referenced by main.c', '>>>               obj/main.o:(main)']))?.location).toBeUndefined();
    expect(findingOf(link(['>>> referenced by vec.h:3 (/usr/include/vec.h:3)', '>>>               obj/main.o:(main)']))?.location).toBeUndefined();
  });
});
