import { sourcesText } from './sources.js';

describe('sourcesText: workspace files and tool calls (issue 17)', () => {
  it('names a file with its line range, and tool calls, refused ones marked', () => {
    expect(
      sourcesText([
        { kind: 'file', path: 'src/A.java', start_line: 36, end_line: 48 },
        { kind: 'file', path: 'Jenkinsfile', start_line: 7, end_line: 7 },
        { kind: 'file', path: 'README.md' },
        { kind: 'tool', name: 'read_workspace_file', input: '{"path":"src/A.java"}', ok: true },
        { kind: 'tool', name: 'read_workspace_file', input: '{"path":"../x"}', ok: false },
      ]),
    ).toBe('sources: file src/A.java:36-48 · file Jenkinsfile:7 · file README.md · read_workspace_file · refused read_workspace_file');
  });
});
