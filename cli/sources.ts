/** How the CLI names an answer's sources (the chat UI and `cichat chats show`); no Ink here. */
import type { Source } from '../protocol/types.js';

const MAX_SOURCES_SHOWN = 8;

/**
 * What an answer rests on, as one line: `sources: log L120-L131 · context buildDetails.result ·
 * file src/App.java` (duplicates once, at most 8, then `+N more`); null when it names none.
 */
export function sourcesText(sources: readonly Source[] | undefined): string | null {
  const names: string[] = [];
  for (const source of sources ?? []) {
    let name: string;
    if (source.kind === 'log') {
      name = source.start_line === source.end_line ? `log L${source.start_line}` : `log L${source.start_line}-L${source.end_line}`;
    } else if (source.kind === 'context') name = `context ${source.field}`;
    else if (source.kind === 'file') {
      const lines = source.start_line === undefined ? '' : source.start_line === source.end_line || source.end_line === undefined ? `:${source.start_line}` : `:${source.start_line}-${source.end_line}`;
      name = `file ${source.path}${lines}`;
    } else if (source.kind === 'tool') name = `${source.ok ? '' : 'refused '}${source.name}`;
    else continue; // a kind this client does not know yet
    if (!names.includes(name)) names.push(name);
  }
  if (names.length === 0) return null;
  const shown = names.slice(0, MAX_SOURCES_SHOWN).join(' · ');
  return `sources: ${shown}${names.length > MAX_SOURCES_SHOWN ? ` · +${names.length - MAX_SOURCES_SHOWN} more` : ''}`;
}
