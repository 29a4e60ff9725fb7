import { cleanLines } from '../log/clean.js';
import { findingOf } from './index.js';
import type { Finding } from '../../protocol/types.js';

/** Tools' own words for the round-3 batch A families (synthetic logs in each tool's format), read as one window. */
const top = (text: string): Finding => {
  const lines = cleanLines(text);
  return findingOf(lines, { start_line: 1, end_line: lines.length });
};

describe('tool formats of round 3, batch A', () => {
  it.each<[string, string, string, string | undefined, number | undefined]>([
    ['php memory_limit', '+ php -d memory_limit=64M bin/top.php\nPHP Fatal error:  Allowed memory size of 67108864 bytes exhausted (tried to allocate 2097152 bytes) in /ws/bin/top.php on line 17\nexit 255', 'out-of-memory', 'top.php', 17],
    ['ruby NoMemoryError', '+ ruby bin/clicks.rb\n[FATAL] failed to allocate memory\nBuild step failed', 'out-of-memory', undefined, undefined],
    ['php extension', '+ php bin/x.php\nPHP Fatal error:  Uncaught Error: Class "NumberFormatter" not found in /ws/src/Money.php:11\nStack trace:\n#0 {main}\n  thrown in /ws/src/Money.php on line 11', 'missing-tool', 'Money.php', 11],
    ['php write denied', '+ php bin/s.php\nPHP Warning:  file_put_contents(/out/a.xml): Failed to open stream: Permission denied in /ws/bin/s.php on line 21\nPHP Fatal error:  Uncaught RuntimeException: cannot write in /ws/bin/s.php:22\nStack trace:\n#0 {main}', 'permission-credentials', 's.php', 21],
    ['php TypeError', '+ php bin/c.php\nPHP Fatal error:  Uncaught TypeError: A::set(): Argument #2 ($r) must be of type float, string given, called in /ws/bin/c.php on line 12 and defined in /ws/src/A.php:12\nStack trace:', 'runtime-exception', 'A.php', 12],
    ['tox', '+ tox\npy314 create: /ws/.tox/py314\nERROR: InterpreterNotFound: python3.14\nsummary', 'missing-tool', undefined, undefined],
    ['bundler ruby', '+ bundle install\nYour Ruby version is 3.1.2, but your Gemfile specified ~> 3.3\nexit 18', 'missing-tool', undefined, undefined],
    ['rake task', '+ rake ci:units\nrake aborted!\nDon\'t know how to build task \'ci:units\' (See the list of available tasks with `rake --tasks`)\n', 'ci-script', undefined, undefined],
    ['yarn frozen', '+ yarn install --frozen-lockfile\n[1/4] Resolving packages...\nerror Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.\n', 'dependency-resolution', undefined, undefined],
    ['checkstyle', '+ checkstyle -c c.xml src\nStarting audit...\n[ERROR] /ws/src/main/java/a/Log.java:4:17: Using the \'.*\' form of import should be avoided - java.util.*. [AvoidStarImport]\nAudit done.\n', 'lint', 'Log.java', 4],
    ['rubocop simple', '+ rubocop --format simple lib\n== lib/notifier.rb ==\nW: 25: 32: Lint/UselessAssignment: Useless assignment to variable - e.\n1 file inspected, 1 offense detected\n', 'lint', 'notifier.rb', 25],
    ['phpunit testdox', '+ phpunit --testdox\n ✘ Free shipping\n   │\n   │ Error: Call to undefined method App\\Cart::subtotal()\n   │\n   │ /ws/src/Checkout.php:19\n   │ /ws/tests/CheckoutTest.php:24\n   │\nERRORS!\n', 'test-error', 'Checkout.php', 19],
  ])('%s', (_name, log, cls, file, line) => {
    const found = top(log);
    expect(found.class).toBe(cls);
    if (file) expect(found.location?.file.endsWith(file)).toBe(true);
    if (line) expect(found.location?.line).toBe(line);
  });
});
