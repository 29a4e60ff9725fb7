/**
 * The `openai` engine's prompt carries the checkout's change (`workspaceChanges`) as structured facts (session 53,
 * helper fx15; fx14's leftover): the range, the commit with its files, and the changed lines that touch what the
 * error names, picked by the offline fix answer's own reader. Checked against the local chat-completions server.
 */
import { ciContextSchema } from '../protocol/ciContext.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import { createOpenAIEngine } from '../backend/answer/openai.js';
import { workspaceChangesSection } from '../backend/answer/workspaceChangesPrompt.js';
import { analyzedChatContext } from './answerFixtures.js';
import { startFakeOpenAIServer, type FakeOpenAIServer } from './fakes/openaiServer.js';
import { readAll } from './helpers/askLocal.js';

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(async () => {
  await server.close();
});

const GCC_LOG = `+ make
gcc -Wall -c src/calc.c -o build/calc.o
src/calc.c: In function 'total_of':
src/calc.c:5:12: error: 'totl' undeclared (first use in this function); did you mean 'total'?
    5 |     return totl;
      |            ^~~~
make: *** [Makefile:4: build/calc.o] Error 1
`;

const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const BASE = '0f1e2d3c4b5a69788796a5b4c3d2e1f001234567';

function changes(diffs: { path: string; text: string }[], files: string[]): CiContextUpload['workspaceChanges'] {
  return ciContextSchema.parse({
    workspaceChanges: { range: 'last-commit', base: BASE, head: HEAD, workspaceId: 'local', commits: [{ commitId: HEAD, author: 'Dana Dev', message: 'Rename the running total', files }], diffs: diffs.map((d) => ({ ...d, commitId: HEAD })) },
  }).workspaceChanges;
}

async function systemPromptFor(upload: CiContextUpload): Promise<{ system: string; sources: unknown[] }> {
  server.setReplies([{ kind: 'stream', chunks: ['ok'] }]);
  const engine = createOpenAIEngine({ apiKey: 'sk-test', baseURL: server.baseURL, model: 'fake-model', contextTokens: 8000 });
  const stream = await engine.answer({ question: 'How do I fix it?', history: [], context: analyzedChatContext(upload, GCC_LOG), signal: new AbortController().signal });
  await readAll(stream);
  const messages = server.requests[server.requests.length - 1]?.body.messages ?? [];
  return { system: messages[0]?.content ?? '', sources: stream.sources };
}

describe("the openai engine's prompt: the checkout's change as facts", () => {
  it('states the range, the commit with its files, and the changed line that is the error\'s own line', async () => {
    const workspaceChanges = changes([{ path: 'src/calc.c', text: '@@ -3,5 +3,5 @@ int total_of(int a, int b) {\n   int total = a + b;\n   (void)b;\n-  return total;\n+  return totl;\n }\n' }, { path: 'README.md', text: '@@ -1 +1 @@\n-old\n+new\n' }], ['M src/calc.c', 'M README.md']);
    const { system, sources } = await systemPromptFor({ buildDetails: { result: 'FAILURE' }, workspaceChanges } as CiContextUpload);
    expect(system).toContain("## The checkout's change (context field workspaceChanges");
    expect(system).toContain(`- Range: the checkout's last commit ${HEAD.slice(0, 10)} only (the last green build's commit is not known)`);
    expect(system).toContain("- Changed lines that touch what finding 1 names:\n  - Line 5 of src/calc.c, the error's own line (commit a1b2c3d4e5):\n    -  return total;\n    +  return totl;");
    expect(system).toContain(`- Commit ${HEAD.slice(0, 10)} "Rename the running total" by Dana Dev; files: M src/calc.c, M README.md`);
    expect(system).toContain('- Other files with changed lines (not shown): README.md');
    expect(sources).toEqual(expect.arrayContaining([{ kind: 'context', field: 'workspaceChanges' }]));
  });

  it('says so when no changed line touches what the error names, so the model is not led to blame the change', async () => {
    const workspaceChanges = changes([{ path: 'docs/guide.md', text: '@@ -1 +1 @@\n-Old words\n+New words\n' }], ['M docs/guide.md']);
    const { system } = await systemPromptFor({ buildDetails: { result: 'FAILURE' }, workspaceChanges } as CiContextUpload);
    expect(system).toContain('- No changed line touches what finding 1 names (src/calc.c, nor a code name its message quotes): nothing here shows the change caused it.');
    expect(system).not.toContain('Changed lines that touch');
  });

  it("says where the head came from, and why a workspace was not read", async () => {
    const workspaceChanges = { ...changes([{ path: 'src/calc.c', text: '@@ -5 +5 @@\n-  return total;\n+  return totl;\n' }], ['M src/calc.c']), headFrom: 'workspace-head' as const };
    const { system } = await systemPromptFor({ buildDetails: { result: 'FAILURE', number: 7 }, workspaceChanges } as CiContextUpload);
    expect(system).toContain("- Head: a1b2c3d4e5 is the HEAD of the build's workspace: build #7 recorded no commit, and no later build has used that workspace, so I read it as this build's checkout");
    const notRead = { workspaceId: 'ws-default', reason: 'no-recorded-commit', laterBuilds: [8, 9] };
    const second = await systemPromptFor({ buildDetails: { result: 'FAILURE', number: 7 }, workspaceChangesNotRead: notRead } as CiContextUpload);
    expect(second.system).toContain("## The checkout's change (context field workspaceChangesNotRead)\nThe checkout's change was not read: build #7 recorded no commit, and later builds (#8, #9) have used that workspace since");
    expect(second.sources).toEqual(expect.arrayContaining([{ kind: 'context', field: 'workspaceChangesNotRead' }]));
  });

  it('leaves the section out without workspaceChanges, and keeps within its budget', async () => {
    const { system, sources } = await systemPromptFor({ buildDetails: { result: 'FAILURE' } } as CiContextUpload);
    expect(system).not.toContain("The checkout's change");
    expect(sources).not.toEqual(expect.arrayContaining([{ kind: 'context', field: 'workspaceChanges' }]));
    const many = ciContextSchema.parse({
      workspaceChanges: { range: 'since-green', base: BASE, head: HEAD, commits: Array.from({ length: 30 }, (_, i) => ({ commitId: `${String(i).padStart(2, '0')}${HEAD.slice(2)}`, message: `Change number ${i} of many with a long subject line`, files: ['M src/calc.c'] })), diffs: [] },
    }).workspaceChanges;
    const section = workspaceChangesSection(analyzedChatContext({ buildDetails: { result: 'FAILURE' }, workspaceChanges: many } as CiContextUpload, GCC_LOG), 200);
    expect(section.text).toContain('- Range: since the last green build');
    expect(section.text.length).toBeLessThan(1000);
  });
});
