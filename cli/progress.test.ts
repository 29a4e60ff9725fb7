import { TextOutput } from './io.js';
import { uploadProgress } from './progress.js';

/** What a terminal shows of one redraw: the text after `\r`, escape codes removed. */
const visible = (frame: string): string => frame.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

describe('upload progress bar (issue 27)', () => {
  it.each([80, 60, 40, 24])('stays on one row at %i columns, uploading and indexing (no new row per refresh)', async (columns) => {
    const out = new TextOutput(true, columns);
    const p = uploadProgress('uploading context', out, true, 10);
    const total = 64 * 1024 * 1024;
    for (let sent = 0; sent < total; sent += total / 8) {
      p.onProgress(sent, total);
      await new Promise((r) => setTimeout(r, 105));
    }
    p.onProgress(total, total);
    await new Promise((r) => setTimeout(r, 40));
    p.finish();
    const frames = out.text.split('\r').filter(Boolean);
    expect(frames.length).toBeGreaterThan(5);
    if (columns >= 40) expect(frames.some((f) => f.includes('indexing…'))).toBe(true);
    for (const f of frames) {
      const shown = visible(f.replace(/\n$/, ''));
      expect(shown).not.toContain('\n');
      expect(shown.length).toBeLessThan(columns);
    }
    // only the final newline ends the line
    expect(out.text.split('\n')).toHaveLength(2);
  });
});
