/**
 * Answers a new user got on failures made on this machine (helper ux9, session 48;
 * test/fixtures/ux9/<job>: fail.log, pass.log, the commit that broke it, the project, and what a
 * senior engineer would say), each checked against what the log and the workspace say.
 */

import { fileURLToPath } from 'node:url';
import { sessionFixtures } from './helpers/sessionFixtures.js';

const { ask, cited } = sessionFixtures(fileURLToPath(new URL('./fixtures/ux9/', import.meta.url)));

describe('pytest setup errors (ux9, orders-service: a Django fixture without `db`)', () => {
  it('counts each test once when the summary names it by its node id', async () => {
    const tests = await ask('which tests failed?', 'orders-service');
    // Before: "**The log shows 5 failing tests**", `test_place_order_keeps_subtotal` and
    // `orders/tests/test_services.py::test_place_order_keeps_subtotal` listed apart.
    expect(tests).toContain('**The log shows 4 failing tests**');
    expect(tests.split('\n').filter((line) => line.startsWith('- `') && line.includes('test_place_order_keeps_subtotal'))).toHaveLength(1);
    cited(tests, 'orders-service');
  });
});
