/**
 * A small Markdown renderer for the terminal: the answer text becomes styled lines already
 * wrapped to the width, so the conversation can show exactly the tail that fits the screen.
 * Headings, lists, block quotes, rules, bold, italic, inline code, fenced code blocks, links
 * (their text) and `[L120-L131]` log citations are understood.
 */
import stringWidth from 'string-width';

export interface Segment {
  text: string;
  bold?: boolean;
  italic?: boolean;
  dim?: boolean;
  color?: string;
  /** A log citation such as [L120-L131]. */
  citation?: boolean;
  code?: boolean;
  /** Layout text (list markers, indents, quote bars): kept verbatim, never broken or squeezed. */
  keep?: boolean;
}

export type StyledLine = Segment[];

/** Terminal columns a text takes (CJK and most emoji take two). */
export function textWidth(text: string): number {
  // Plain ASCII is one column per character: the common case, measured without the library.
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

/** The longest start of `text` that fits `columns` (at least one character, so a loop always advances). */
export function fitStart(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  let used = 0;
  let out = '';
  for (const ch of text) {
    const w = textWidth(ch);
    if (used + w > columns && out) break;
    out += ch;
    used += w;
  }
  return out;
}

/** Cuts `text` to `columns`, ending with `…` when it was longer. */
export function truncateTo(text: string, columns: number): string {
  if (textWidth(text) <= columns) return text;
  if (columns <= 1) return fitStart(text, columns);
  return `${fitStart(text, columns - 1)}…`;
}

/** Pads `text` with spaces to `columns` (measured, not counted). */
export function padTo(text: string, columns: number): string {
  return text + ' '.repeat(Math.max(0, columns - textWidth(text)));
}

const CITATION = /^\[L\d+(?:\s*[-–]\s*L?\d+)?(?:\s*,\s*L\d+(?:\s*[-–]\s*L?\d+)?)*\]/;

/** Splits one line of Markdown text into styled segments (inline markup only). */
export function inlineSegments(text: string, base: Omit<Segment, 'text'> = {}): Segment[] {
  const out: Segment[] = [];
  let plain = '';
  const push = (seg: Segment): void => {
    if (plain) out.push({ ...base, text: plain });
    plain = '';
    out.push(seg);
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const ch = text[i];
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        push({ ...base, text: text.slice(i + 1, end), code: true, color: 'yellow' });
        i = end + 1;
        continue;
      }
    } else if (ch === '[') {
      const cite = CITATION.exec(rest);
      if (cite) {
        push({ ...base, text: cite[0], citation: true, color: 'cyan', bold: true });
        i += cite[0].length;
        continue;
      }
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
      if (link) {
        push({ ...base, text: link[1] ?? '', color: 'blue' });
        i += link[0].length;
        continue;
      }
    } else if ((ch === '*' || ch === '_') && rest.startsWith(ch.repeat(2))) {
      const end = text.indexOf(ch.repeat(2), i + 2);
      if (end > i + 2) {
        for (const s of inlineSegments(text.slice(i + 2, end), { ...base, bold: true })) push(s);
        i = end + 2;
        continue;
      }
    } else if ((ch === '*' || ch === '_') && /\S/.test(text[i + 1] ?? '') && (i === 0 || !/\w/.test(text[i - 1] ?? ''))) {
      const end = text.indexOf(ch, i + 1);
      if (end > i + 1 && !/\s/.test(text[end - 1] ?? '')) {
        for (const s of inlineSegments(text.slice(i + 1, end), { ...base, italic: true })) push(s);
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  if (plain) out.push({ ...base, text: plain });
  return out;
}

/**
 * Greedy word wrap of segments to `width` columns; continuation lines start with `indent`
 * (a hanging indent for list items). Words longer than a line are cut.
 */
export function wrapSegments(segments: Segment[], width: number, indent: Segment[] = []): StyledLine[] {
  const w = Math.max(8, width);
  const indentWidth = indent.reduce((n, s) => n + textWidth(s.text), 0);
  const lines: StyledLine[] = [];
  let line: Segment[] = [];
  let used = 0;
  const trimEnd = (): void => {
    const last = line[line.length - 1];
    if (!last || last.keep) return;
    const text = last.text.trimEnd();
    if (text) line[line.length - 1] = { ...last, text };
    else line.pop();
  };
  const newLine = (): void => {
    trimEnd();
    lines.push(line);
    line = [...indent];
    used = indentWidth;
  };
  const append = (seg: Segment, text: string): void => {
    const prev = line[line.length - 1];
    if (prev && sameStyle(prev, seg)) line[line.length - 1] = { ...prev, text: prev.text + text };
    else line.push({ ...seg, text, keep: false });
    used += textWidth(text);
  };
  for (const seg of segments) {
    if (seg.keep) {
      line.push(seg);
      used += textWidth(seg.text);
      continue;
    }
    for (const token of seg.text.split(/(\s+)/)) {
      if (!token) continue;
      if (/^\s+$/.test(token)) {
        if (used > indentWidth && used + 1 <= w) append(seg, ' ');
        continue;
      }
      let word = token;
      if (used + textWidth(word) > w && used > indentWidth) newLine();
      while (textWidth(word) > w - used) {
        const part = fitStart(word, Math.max(1, w - used));
        append(seg, part);
        word = word.slice(part.length);
        newLine();
      }
      if (word) append(seg, word);
    }
  }
  if (line.length > 0 || lines.length === 0) {
    trimEnd();
    lines.push(line);
  }
  return lines;
}

function sameStyle(a: Segment, b: Segment): boolean {
  return !a.keep && !b.keep && a.bold === b.bold && a.italic === b.italic && a.dim === b.dim && a.color === b.color && a.citation === b.citation && a.code === b.code;
}

const FENCE = /^\s*(```+|~~~+)\s*([\w+-]*)\s*$/;

/** Markdown text as styled lines wrapped to `width`. */
export function markdownLines(text: string, width: number): StyledLine[] {
  return renderSource(text.replace(/\r\n?/g, '\n').split('\n'), width, null);
}

/**
 * The last styled lines of a Markdown text, at least `minLines` of them when the text has
 * that many: only the end of the text is rendered, so the cost follows what is on the screen,
 * not the length of the answer (a 10k-word answer streams without slowing the UI down).
 */
export function markdownTail(text: string, width: number, minLines: number): StyledLine[] {
  const source = text.replace(/\r\n?/g, '\n').split('\n');
  // Which fence is open before each line: a cheap scan of the whole text.
  const fenceBefore: (string | null)[] = new Array<string | null>(source.length);
  let fence: string | null = null;
  source.forEach((line, i) => {
    fenceBefore[i] = fence;
    if (line.indexOf('```') < 0 && line.indexOf('~~~') < 0) return;
    const mark = FENCE.exec(line);
    if (!mark) return;
    if (fence === null) fence = mark[1] ?? '```';
    else if (mark[1]?.startsWith(fence)) fence = null;
  });
  let start = source.length;
  let step = Math.max(8, minLines);
  let out: StyledLine[] = [];
  while (start > 0) {
    start = Math.max(0, start - step);
    step *= 2;
    out = renderSource(source.slice(start), width, fenceBefore[start] ?? null);
    if (out.length >= minLines) break;
  }
  return out;
}

function renderSource(source: string[], width: number, openFence: string | null): StyledLine[] {
  const out: StyledLine[] = [];
  let fence: string | null = openFence;
  for (const raw of source) {
    const fenceMark = raw.indexOf('```') < 0 && raw.indexOf('~~~') < 0 ? null : FENCE.exec(raw);
    if (fence !== null) {
      if (fenceMark && fenceMark[1]?.startsWith(fence)) {
        fence = null;
        continue;
      }
      const code = raw.replace(/\t/g, '  ');
      const room = Math.max(4, width - 2);
      let rest = code;
      do {
        const part = fitStart(rest, room);
        out.push([{ text: '│ ', dim: true }, { text: part, color: 'yellow', code: true }]);
        rest = rest.slice(part.length);
      } while (rest);
      continue;
    }
    if (fenceMark) {
      fence = fenceMark[1] ?? '```';
      const lang = fenceMark[2];
      if (lang) out.push([{ text: `┌ ${lang}`, dim: true }]);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(raw);
    if (heading) {
      const level = heading[1]?.length ?? 1;
      const segs = inlineSegments(heading[2] ?? '', { bold: true, color: level <= 2 ? 'magenta' : 'white' });
      out.push(...wrapSegments(segs, width));
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(raw)) {
      out.push([{ text: '─'.repeat(Math.max(1, Math.min(width, 40))), dim: true }]);
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(raw);
    if (item) {
      const depth = Math.floor((item[1]?.length ?? 0) / 2);
      const marker = /\d/.test(item[2] ?? '') ? `${item[2]} ` : '• ';
      const lead = '  '.repeat(depth);
      const first: Segment[] = [{ text: lead + marker, color: 'green', keep: true }];
      const hang: Segment[] = [{ text: lead + ' '.repeat(marker.length), keep: true }];
      out.push(...wrapSegments([...first, ...inlineSegments(item[3] ?? '')], width, hang));
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(raw);
    if (quote) {
      const bar: Segment = { text: '│ ', dim: true, keep: true };
      out.push(...wrapSegments([bar, ...inlineSegments(quote[1] ?? '', { italic: true })], width, [bar]));
      continue;
    }
    if (raw.trim() === '') {
      out.push([]);
      continue;
    }
    const lead = /^\s*/.exec(raw)?.[0] ?? '';
    const indent: Segment[] = lead ? [{ text: lead, keep: true }] : [];
    out.push(...wrapSegments([...indent, ...inlineSegments(raw.slice(lead.length))], width, indent));
  }
  return out;
}

/** Plain text of a styled line (for tests and measuring). */
export function lineText(line: StyledLine): string {
  return line.map((s) => s.text).join('');
}


const COLOURS: Record<string, number> = { black: 30, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, white: 37, gray: 90 };

/** One styled line as ANSI text for a terminal (`cichat ask`); citations are dimmed, as asides. */
export function ansiLine(line: StyledLine): string {
  return line
    .map((s) => {
      const codes: number[] = [];
      if (s.citation) codes.push(2);
      else {
        if (s.bold) codes.push(1);
        if (s.dim) codes.push(2);
        if (s.italic) codes.push(3);
        const colour = s.color ? COLOURS[s.color] : undefined;
        if (colour !== undefined) codes.push(colour);
      }
      return codes.length ? `\u001b[${codes.join(';')}m${s.text}\u001b[0m` : s.text;
    })
    .join('');
}

/**
 * Markdown rendered while it streams (`cichat ask` on a terminal): each source line is
 * rendered and written as soon as its newline arrives (the fence state is carried from line
 * to line); `end()` renders the unfinished last line.
 */
export class MarkdownStream {
  private partial = '';
  private fence: string | null = null;

  constructor(private readonly width: number) {}

  /** Text of the answer as it arrives; answers the ANSI text of the lines it completed. */
  push(text: string): string {
    const all = this.partial + text.replace(/\r\n?/g, '\n');
    const cut = all.lastIndexOf('\n');
    if (cut < 0) {
      this.partial = all;
      return '';
    }
    this.partial = all.slice(cut + 1);
    return this.render(all.slice(0, cut).split('\n'));
  }

  end(): string {
    const rest = this.partial;
    this.partial = '';
    return rest ? this.render([rest]) : '';
  }

  private render(source: string[]): string {
    let out = '';
    for (const raw of source) {
      const mark = raw.indexOf('```') < 0 && raw.indexOf('~~~') < 0 ? null : FENCE.exec(raw);
      const lines = renderSource([raw], this.width, this.fence);
      if (mark) {
        if (this.fence === null) this.fence = mark[1] ?? '```';
        else if (mark[1]?.startsWith(this.fence)) this.fence = null;
      }
      for (const line of lines) out += ansiLine(line) + '\n';
    }
    return out;
  }
}
