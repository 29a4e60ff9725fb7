import type { CiContext } from '../../protocol/types.js';
import { SNIPPET_CLUE_MARK } from '../../protocol/ciContext.js';
import type { ChatContext } from './engine.js';
import { workspaceSection } from './workspacePrompt.js';

describe('workspaceSection: the openai prompt\'s workspace source', () => {
  it('a clue snippet goes in with its note, so a model knows the marked line was found by text, not named by the log', () => {
    const ci = {
      workspaceSnippets: [
        { path: 'pom.xml', workspaceId: 'local', startLine: 20, endLine: 22, text: '<dependency>\n  <artifactId>pricing-core</artifactId>\n</dependency>', kind: 'source', line: 21, message: `${SNIPPET_CLUE_MARK}declares the dependency pricing-core` },
      ],
    } as unknown as CiContext;
    const { text, sources } = workspaceSection({ ciContext: ci } as unknown as ChatContext, 2000);
    expect(text).toContain('in a snippet noted `clue:` the workspace line that names what failed');
    expect(text).toContain('--- pom.xml, lines 20-22 (clue: declares the dependency pricing-core)');
    expect(text).toContain('>21|   <artifactId>pricing-core</artifactId>');
    expect(sources).toEqual([{ kind: 'file', path: 'pom.xml', start_line: 20, end_line: 22 }]);
  });
});
