import type { Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { subjectCentre } from './subjectWindow.js';
import { numbered } from './workspace.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'test-assertion', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });
const file = (path: string, lines: string[]): WorkspaceSnippet => ({ path, workspaceId: 'w', startLine: 1, endLine: lines.length, text: lines.join('\n'), kind: 'source' }) as WorkspaceSnippet;
const filler = (n: number): string[] => Array.from({ length: n }, (_, i) => `// line ${i + 1}`);

describe('subjectCentre: the code under test opens at what the failing test calls', () => {
  const subject = file('semver/semver.go', [...filler(44), 'func Compare(a, b Version) int {', '\treturn comparePre(a.Pre, b.Pre)', '}', ...filler(13)]);
  it("centres on the definition of the name the test is named after (Go's TestCompare), the window kept whole at the file's end", () => {
    const centre = subjectCentre(subject, finding({ test: { name: 'TestCompare/pre-release', log_line: 1 } }), undefined);
    const block = numbered(subject, undefined, 30, centre);
    expect(block).toContain('45 | func Compare(a, b Version) int {');
    expect(block).toContain('60 | // line 13');
    expect(block.split('\n').length).toBe(32);
  });
  it("centres on a name the test's failing line calls; keeps the start when the definition is near it, or nothing is defined", () => {
    const test = file('semver/semver_test.go', ['package semver', 'func TestX(t *testing.T) {', '\tif got := Compare(a, b); got != 1 {']);
    expect(subjectCentre(subject, finding({ location: { file: 'semver/semver_test.go', line: 3, log_line: 1 } }), test)).toBeGreaterThan(40);
    const early = file('a.go', ['func Compare() {}', ...filler(50)]);
    expect(subjectCentre(early, finding({ test: { name: 'TestCompare', log_line: 1 } }), undefined)).toBeUndefined();
    expect(subjectCentre(subject, finding({ test: { name: 'TestParse', log_line: 1 } }), undefined)).toBeUndefined();
  });
});
