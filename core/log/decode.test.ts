/**
 * The one rule "UTF-8 if valid, else Windows-1252" (decodeUtf8OrCp1252), and that it is written
 * once: the CLI's whole-log reader, the JENKINS_HOME file reader and the log tail use it (issue 31
 * review: one shape for each thing; rv3, session 43).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, sourceFiles } from '../../test/helpers/sourceFiles.js';
import { decodeUtf8OrCp1252 } from './decode.js';

describe('decodeUtf8OrCp1252', () => {
  it('reads valid UTF-8 as UTF-8 and anything else as Windows-1252, saying so', () => {
    const seen: string[] = [];
    const note = { onCp1252: () => seen.push('cp1252') };
    expect(decodeUtf8OrCp1252(Buffer.from('Größe ✓'), note)).toBe('Größe ✓');
    expect(seen).toEqual([]);
    expect(decodeUtf8OrCp1252(Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0xe9]), note)).toBe('€ “q” é');
    expect(seen).toEqual(['cp1252']);
  });

  it('drops a UTF-8 character cut at the end of a head only when told the bytes are cut', () => {
    const head = Buffer.concat([Buffer.from('<build>é'), Buffer.from('✓').subarray(0, 2)]);
    expect(decodeUtf8OrCp1252(head, { cut: true })).toBe('<build>é');
    // Not cut: the bytes are not UTF-8, so all of them are Windows-1252.
    expect(decodeUtf8OrCp1252(head)).toBe('<build>Ã©âœ');
    // Cut, but not UTF-8 before the cut: Windows-1252 for every byte, the last ones too.
    expect(decodeUtf8OrCp1252(Buffer.from([0xe9, 0x20, 0xe2, 0x9c]), { cut: true })).toBe('é âœ');
  });
});

test('the choice between UTF-8 and Windows-1252 is made in core/log/decode.ts only', () => {
  // backend/routes/context.ts asks whether a big upload is UTF-8 to take its fast path; it decodes nothing.
  const allowed = new Set(['core/log/decode.ts', 'backend/routes/context.ts']);
  const files = sourceFiles(['core', 'jenkins', 'cli', 'backend', 'controller', 'http', 'protocol', 'web'], { tests: false });
  expect(files.length).toBeGreaterThan(200);
  const choosing = files.filter((f) => !allowed.has(f) && /\bisUtf8\s*\(/.test(readFileSync(path.join(REPO_ROOT, f), 'utf8')));
  expect(choosing).toEqual([]);
});
