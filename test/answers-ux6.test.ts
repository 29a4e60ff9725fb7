/**
 * Answers a new user got on failures made on this machine (helper ux6, session 45;
 * test/fixtures/ux6: a Python package whose two modules import each other, a Rust crate built
 * `--offline` on an agent whose cargo cache lacks a dependency, a C program linked without the
 * definition its header declares), each checked against what the log and the workspace say.
 */

import { readFileSync } from 'node:fs';
import { importCycleOf } from '../backend/answer/local/importCycle.js';
import { askLocal } from './helpers/askLocal.js';
import { askWithCheckout } from './helpers/askCheckout.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';

const log = (name: string): string => readFileSync(new URL(`./fixtures/ux6/${name}`, import.meta.url), 'utf8');

const ORDERS = {
  'orders/__init__.py': 'from orders.models import Order\nfrom orders.pricing import price_order\n\n__all__ = ["Order", "price_order"]\n',
  'orders/models.py': 'from dataclasses import dataclass, field\n\nfrom orders.pricing import TAX_RATE\n\n\n@dataclass\nclass Order:\n    lines: list = field(default_factory=list)\n\n    def gross(self):\n        return sum(self.lines) * (1 + TAX_RATE)\n',
  'orders/pricing.py': 'from orders.models import Order\n\nTAX_RATE = 0.2\n\n\ndef price_order(order: Order) -> float:\n    return round(order.gross(), 2)\n',
  'tests/test_pricing.py': 'from orders import Order, price_order\n\n\ndef test_price():\n    assert price_order(Order([10, 5])) == 18.0\n',
};

describe('answers on failures made by ux6', () => {
  it('a circular import is the project\'s imports, not what the build installs: the fix names the loop the trace shows', async () => {
    const text = log('pytest-import-cycle.log');
    const fix = await askWithCheckout('how do I fix it?', text, ORDERS);
    // Before: "the fix is in what the build puts on the classpath or installs, not in the line", then "Break the cycle".
    expect(fix).not.toContain('classpath');
    expect(fix).not.toContain('what the build puts on');
    expect(fix).toContain('that import ran while `orders.models` was still loading');
    expect(fix).toContain('The trace shows the cycle: `orders/models.py:3` [L32-L33] runs `from orders.pricing import TAX_RATE`, then `orders/pricing.py:1` [L34-L35] runs `from orders.models import Order`');
    // The test's import only started the loop: no "which of the two to change" between the test and the module.
    expect(fix).not.toContain("**The test's own line:**");
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
    const why = await askWithCheckout('why did the build fail?', text, ORDERS);
    expect(why).not.toContain('classpath');
    expect(checkCitations(why, text.split('\n'))).toEqual([]);
  });

  it("reads the loop from Python's own traceback too, and not when the trace does not show the module's own frame", () => {
    const lines = [
      'Traceback (most recent call last):',
      '  File "/srv/app/main.py", line 1, in <module>',
      '    import shop.cart',
      '  File "/srv/app/shop/cart/__init__.py", line 2, in <module>',
      '    from shop.tax import rate',
      '  File "/srv/app/shop/tax.py", line 4, in <module>',
      '    from shop.cart import Cart',
      "ImportError: cannot import name 'Cart' from partially initialized module 'shop.cart' (most likely due to a circular import) (/srv/app/shop/cart/__init__.py)",
    ];
    const at = (n: number): string | undefined => lines[n - 1];
    const message = lines[7] as string;
    expect(importCycleOf(at, 8, message)).toEqual([
      { file: '/srv/app/shop/cart/__init__.py', line: 2, code: 'from shop.tax import rate', log_line: 4 },
      { file: '/srv/app/shop/tax.py', line: 4, code: 'from shop.cart import Cart', log_line: 6 },
    ]);
    // Without the half-loaded module's own frame the loop is not shown whole: no cycle is claimed.
    const cut = (n: number): string | undefined => (n === 4 || n === 5 ? '' : lines[n - 1]);
    expect(importCycleOf(cut, 8, message)).toBeUndefined();
    expect(importCycleOf(at, 8, 'ImportError: cannot import name Cart from shop.cart')).toBeUndefined();
  });

  it('a resolver run offline is said so when the tool\'s reminder under the message, not the message, shows it', async () => {
    const text = log('cargo-offline-missing-crate.log');
    const fix = await askWithCheckout('how do I fix it?', text, { 'Cargo.toml': '[package]\nname = "rs-report"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\ncsv = "1.3"\n', 'src/main.rs': 'fn main() {\n    let _ = csv::Reader::from_path("data.csv");\n}\n' });
    // The manifest's line: the cache, not the repository, is what an offline build lacked.
    expect(fix).toContain("`Cargo.toml:7` is where the build asks for `csv`");
    expect(fix).toContain("it is missing from the agent's local cache, the only place an offline build looks");
    expect(fix).not.toContain('reachable from the agent');
    // Before: "Check the crate name and version in `Cargo.toml` (`cargo search`)", a search that needs the network it did not use.
    expect(fix).toContain('Cargo ran offline [L22-L22] and `csv` is not in the local registry cache [L19-L19]');
    expect(fix).not.toContain('cargo search');
    const side = await askLocal('was it the infrastructure or the code?', analyzedChatContext({}, text));
    expect(side).toContain("The build ran offline [L22-L22], so it could use only what the agent's local cache held");
    // The why answer reads the same line (remedyWhere.ts offlineLine): three answers agree.
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, text));
    expect(why).toContain('The build ran offline, so only what the local cache holds was available [L22-L22].');
    for (const answer of [fix, side, why]) expect(checkCitations(answer, text.split('\n'))).toEqual([]);
  });

  it('"what changed since the last green build?" on a piped log: the commit the log built, cited, and how to get the changes', async () => {
    const text = log('c-undefined-reference.log');
    const answer = await askLocal('what changed since the last green build?', analyzedChatContext({}, text));
    // (ux8: with the message the git plugin printed under it, [L12-L12].)
    expect(answer).toContain("its log shows only the commit it built, `b32b43dcaee2` [L11-L11], whose message is `Print the reorder level` [L12-L12], not the last green build's");
    expect(answer).toContain('`git log --oneline <last green commit>..b32b43dcaee2`');
    expect(answer).toContain('--baseline-log pass.log');
    // One paragraph on where the list comes from, in words, not the field name the engine adds otherwise.
    expect(answer).not.toContain('`buildDetails.changes`');
    expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    // A log without a checkout line: the answer stays the plain "not said".
    const bare = await askLocal('what changed since the last green build?', analyzedChatContext({}, text.replace(/^Checking out Revision .*$/m, '')));
    expect(bare).toContain('The uploaded context does not say which changes went into');
    expect(bare).not.toContain('git log');
  });
});
