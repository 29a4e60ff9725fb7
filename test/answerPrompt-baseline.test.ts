/**
 * The `openai` engine's prompt against the last green build (issue 16): the excerpts new since
 * it come first and are marked, the old ones are marked as probably not the cause, and the
 * facts name the green build and the commits since.
 */
import { contextFactLines, rankPassages } from '../backend/answer/prompt.js';

describe('prompt with a baseline', () => {
  it('puts the new excerpts first, marked NEW, and marks the old ones', () => {
    const passages = rankPassages(
      [
        { start_line: 3, end_line: 4, text: 'bash: shellcheck: command not found', reason: 'shell: command not found', new_since_baseline: false },
        { start_line: 9, end_line: 9, text: "src/sum.ts(3,38): error TS2339: Property 'length'", reason: 'compiler error', new_since_baseline: true },
      ],
      [{ start_line: 20, end_line: 22, text: 'retrieved' }],
      true,
    );
    expect(passages.map((p) => [p.start_line, p.label])).toEqual([
      [9, '(analyzer: compiler error; NEW since the last green build)'],
      [3, '(analyzer: shell: command not found; also in the last green build, probably not the cause)'],
      [20, '(retrieved for the question)'],
    ]);
  });

  it('without a baseline the labels and order are as before', () => {
    const passages = rankPassages([{ start_line: 3, end_line: 4, text: 'x', reason: 'error' }], [], true);
    expect(passages.map((p) => p.label)).toEqual(['(analyzer: error)']);
  });

  it('names the last green build, says the excerpts were compared, and lists the commits since', () => {
    const lines = contextFactLines(
      {
        buildDetails: {
          number: 42,
          result: 'FAILURE',
          lastSuccessfulBuild: { number: 41, result: 'SUCCESS', comparedLogLines: 57, changesSince: [{ commitId: 'a1b2c3d4e5f60718', author: 'alice', message: 'Count lengths', build: 42 }] },
        },
      },
      1000,
    );
    expect(lines).toContain('Last green build: #41 SUCCESS; the excerpts below are marked NEW when its log did not print them');
    expect(lines).toContain('Commits since the last green build: a1b2c3d4e5 "Count lengths" by alice (#42)');
  });

  it('says when no earlier build passed', () => {
    const lines = contextFactLines({ buildDetails: { number: 1, result: 'FAILURE', noSuccessfulBuild: '#1 is the first build of app: no earlier build passed' } }, 1000);
    expect(lines).toContain('Last green build: none (#1 is the first build of app: no earlier build passed)');
  });
});
