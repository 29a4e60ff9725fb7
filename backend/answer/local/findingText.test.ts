import type { Finding } from '../../../protocol/types.js';
import { reproduceCommand } from './findingText.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'test-assertion', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

describe('reproduceCommand: the failing test alone, per runner', () => {
  it('minitest, from the test line and its place', () => {
    const f = finding({ tool: 'minitest', test: { name: 'TestKramdown#test_highlighter [/ws/jekyll/test/test_kramdown.rb:106]', log_line: 2 }, location: { file: '/ws/jekyll/test/test_kramdown.rb', line: 106, log_line: 2 } });
    expect(reproduceCommand(f, 'bundle exec rake test')).toBe("ruby -Itest test/test_kramdown.rb -n '/test_highlighter/'");
  });
  it('rspec, from the place in its summary', () => {
    expect(reproduceCommand(finding({ tool: 'rspec', test: { name: 'Mutex works (./spec/components/mutex_spec.rb:29)', log_line: 1 } }), undefined)).toBe('bundle exec rspec ./spec/components/mutex_spec.rb:29');
  });
  it('phpunit and node --test', () => {
    expect(reproduceCommand(finding({ tool: 'phpunit', test: { name: 'Tests\\CartTest::testTotal', log_line: 1 } }), undefined)).toBe("vendor/bin/phpunit --filter 'testTotal'");
    expect(reproduceCommand(finding({ tool: 'tap', test: { name: "it's sorted", log_line: 1 } }), 'node --test test/')).toBe("node --test --test-name-pattern 'it'\\''s sorted'");
  });
  it('falls back to the command the CI ran, never to the shell that ran the script', () => {
    expect(reproduceCommand(finding({ class: 'network' }), 'curl -fsS http://x')).toBe('curl -fsS http://x');
    expect(reproduceCommand(finding({ class: 'network' }), '/bin/bash -xe ci.sh')).toBeUndefined();
  });
});
