import { describe, expect, it } from '@jest/globals';
import { realFinding as real, topFinding as top } from '../../test/helpers/findingCases.js';

/**
 * The family rules on tools they were not written for (arbiter.ts, round 7 tuning): the general
 * evidence wins where it contradicts the family rule's tool or reads the failure the family rule
 * only saw as a verdict; elsewhere the family's finding stands.
 */
describe('family rules on unseen tools (round 7 tuning)', () => {
  it('takes the general reading where the step ran another tool than the family rule names', () => {
    // Python's `SyntaxError:` rule on Node's JSON.parse error.
    expect(real('node-json-parse-config')?.class).toBe('runtime-exception');
    const json = top(
      '+ node tools/gen.js\nundefined:3\n}\n^\n\nSyntaxError: Unexpected token } in JSON at position 41\n    at JSON.parse (<anonymous>)\n    at main (/ws/tools/gen.js:4:20)\n    at Object.<anonymous> (/ws/tools/gen.js:9:1)\nexit 1',
    );
    expect([json.class, json.tool]).toEqual(['runtime-exception', 'node']);
    // flake8's code rule on pycodestyle's report: the class stands, the tool is the one that ran.
    expect(real('pycodestyle-line-too-long')?.tool).toBe('pycodestyle');
    const style = top('+ pycodestyle src\nsrc/a.py:3:80: E501 line too long (91 > 79 characters)\nexit 1');
    expect([style.class, style.tool]).toEqual(['lint', 'pycodestyle']);
  });

  it("takes the failure's own words over a bare verdict", () => {
    // TAP's `not ok N name` (low confidence) over QUnit's `test timed out` in its diagnostics.
    const qunit = real('qunit-test-timeout');
    expect([qunit?.class, qunit?.message]).toEqual(['timeout-aborted', 'message: Test took longer than 3000ms; test timed out.']);
    expect(top('+ npx tape test/*.js\nTAP version 13\nnot ok 3 fetches the index\n  ---\n  message: test timed out after 2000ms\n  ...\nexit 1').class).toBe('timeout-aborted');
  });

  it('keeps the family reading where nothing contradicts it', () => {
    // The tool the family rule names ran.
    expect(top('+ python3 tools/gen.py\n  File "tools/gen.py", line 3\n    x = (\n        ^\nSyntaxError: invalid syntax\nexit 1').class).toBe('compile-error');
    expect(top('+ flake8 src\nsrc/a.py:3:80: E501 line too long (91 > 79 characters)\nexit 1').tool).toBe('flake8');
    expect(top('+ python -m flake8 src\nsrc/a.py:3:80: E501 line too long (91 > 79 characters)\nexit 1').tool).toBe('flake8');
    // No command echoed: nothing contradicts the family's tool (Node's own frame under it: its parse error of a module).
    expect(top('SyntaxError: invalid syntax\n    at wrapSafe (node:internal/modules/cjs/loader:1469:18)\nexit 1').class).toBe('compile-error');
    // But the code's own frame right under the message is Node's: a SyntaxError thrown at run time (round 18, t19).
    expect(top('SyntaxError: invalid syntax\n    at main (/ws/tools/gen.js:4:20)\nexit 1').class).toBe('runtime-exception');
    // A bare verdict the general evidence cannot read further stays the test's error.
    expect(top('+ npx tape test/*.js\nTAP version 13\nnot ok 3 fetches the index\n  ---\n  operator: fail\n  ...\nexit 1').class).toBe('test-error');
  });
});
