import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * A message split into a header ending in `:` and its payload on the next line is one message (docs/notes/analyzer.md,
 * "The line that carries the error (helper msg3)"). Made-up logs of other projects, with counter-examples.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;

describe("a header's payload on the next line is part of the message", () => {
  it("git: the refused connection's errno line joins its `fatal: unable to connect to H:` header", () => {
    const log = ['+ git clone git://10.0.0.7:9418/assets.git', "Cloning into 'assets'...", 'fatal: unable to connect to 10.0.0.7:', '10.0.0.7[0: 10.0.0.7]: errno=Connection refused', '', 'ERROR: script returned exit code 128', 'Finished: FAILURE'].join('\n');
    const f = top(log);
    expect([f?.class, f?.message]).toEqual(['network', 'fatal: unable to connect to 10.0.0.7: 10.0.0.7[0: 10.0.0.7]: errno=Connection refused']);
  });

  it("go: the compiler's reason on the tab-indented line under `...:`", () => {
    const log = ['+ go build ./...', '# example.org/shop/pay', 'pay/gateway.go:41:9: cannot use card (variable of type Card) as Method value in argument to charge:', '\tCard does not implement Method (Pay method has pointer receiver)', 'ERROR: script returned exit code 1'].join('\n');
    expect(top(log)?.message).toBe('pay/gateway.go:41:9: cannot use card (variable of type Card) as Method value in argument to charge: Card does not implement Method (Pay method has pointer receiver)');
  });

  it("an exception with no words of its own takes them from below a blank line (AssertJ's form)", () => {
    const log = [
      '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! -- in org.shop.CartTest',
      '[ERROR] org.shop.CartTest.itemsInOrder -- Time elapsed: 0.03 s <<< FAILURE!',
      'java.lang.AssertionError: ',
      '',
      'Expecting actual:',
      '  ["pear", "apple"]',
      '\tat org.shop.CartTest.itemsInOrder(CartTest.java:22)',
    ].join('\n');
    expect(top(log)?.message).toBe('java.lang.AssertionError: Expecting actual:');
  });

  it("counter-examples: a quoted source line, a compiler's `In function` and a frame are no header's payload", () => {
    const pytest = [
      '____________________________ test_port ____________________________',
      '    def test_port():',
      '>       with pytest.raises(ConfigError, match=r"bad port: 0"):',
      'E       AssertionError: Regex pattern did not match.',
      'tests/test_config.py:9: AssertionError',
      '=========================== short test summary info ===========================',
      'FAILED tests/test_config.py::test_port - AssertionError: Regex pattern did not match.',
    ].join('\n');
    expect(top(pytest)?.message).toBe('AssertionError: Regex pattern did not match.');
    const gcc = ['+ make', 'src/main.c: In function ‘main’:', "src/main.c:5:3: error: ‘count’ undeclared (first use in this function)", 'make: *** [Makefile:4: app] Error 1'].join('\n');
    expect(top(gcc)?.message).toBe("src/main.c:5:3: error: ‘count’ undeclared (first use in this function)");
  });
});
