/**
 * A small Markdown renderer that makes React elements, never HTML: answer and log text reach the
 * page only as text nodes, so nothing in them can run or style the page. Understood: headings,
 * paragraphs, bullet and numbered lists, block quotes, rules, fenced code, inline code, bold,
 * italic, http(s) links (opened in a new tab, no referrer), and the log citations `[L120-L131]`
 * (`[L7]`, `[L3-L5, L9]`), which become buttons that open the log viewer.
 */
import { Fragment, type ReactNode } from 'react';

export interface Citation {
  start: number;
  end: number;
}

export interface MarkdownProps {
  text: string;
  onCitation?: (c: Citation) => void;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; lang: string; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+-]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^ {0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;

/** The blocks of a Markdown text (an unclosed fence runs to the end: the answer is still streaming). */
export function parseBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length > 0) blocks.push({ kind: 'paragraph', text: para.join('\n') });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      endPara();
      const marker = fence[1] ?? '```';
      const closes = (l: string) => {
        const t = l.trim();
        return t.length >= marker.length && t[0] === marker[0] && new RegExp(`^\\${marker[0]}+$`).test(t);
      };
      const body: string[] = [];
      i++;
      while (i < lines.length && !closes(lines[i] ?? '')) body.push(lines[i++] ?? '');
      blocks.push({ kind: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      endPara();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endPara();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      continue;
    }
    if (RULE.test(line)) {
      endPara();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      endPara();
      const ordered = !bullet;
      const items: string[] = [];
      const start = numbered ? Number(numbered[1]) : 1;
      while (i < lines.length) {
        const l = lines[i] ?? '';
        const m = ordered ? NUMBERED.exec(l) : BULLET.exec(l);
        if (m) items.push((ordered ? m[2] : m[1]) ?? '');
        else if (/^\s{2,}\S/.test(l) && items.length > 0) items[items.length - 1] += `\n${l.trim()}`;
        else break;
        i++;
      }
      i--;
      blocks.push({ kind: 'list', ordered, start, items });
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      endPara();
      const body: string[] = [];
      while (i < lines.length) {
        const m = QUOTE.exec(lines[i] ?? '');
        if (!m) break;
        body.push(m[1] ?? '');
        i++;
      }
      i--;
      blocks.push({ kind: 'quote', text: body.join('\n') });
      continue;
    }
    para.push(line);
  }
  endPara();
  return blocks;
}

const CITATION = /\[(L\d+(?:\s*[-–]\s*L?\d+)?(?:\s*,\s*L\d+(?:\s*[-–]\s*L?\d+)?)*)\]/y;
const LINK = /\[([^\]\n]{1,500})\]\((https?:\/\/[^\s)]{1,2000})\)/y;
const CODE = /(`+)([\s\S]*?[^`])\1(?!`)/y;
const BOLD = /(\*\*|__)(?=\S)([\s\S]*?\S)\1/y;
const ITALIC = /(\*|_)(?=\S)([\s\S]*?\S)\1(?![\w*])/y;
const URL_RE = /https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/y;

/** The citation spans of `[L3-L5, L9]`. */
export function citationSpans(inner: string): Citation[] {
  return inner.split(',').map((part) => {
    const m = /L(\d+)(?:\s*[-–]\s*L?(\d+))?/.exec(part);
    const start = Number(m?.[1] ?? 1);
    const end = Math.max(start, Number(m?.[2] ?? start));
    return { start, end };
  });
}

function at(re: RegExp, text: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(text);
}

/** Inline Markdown as React nodes (text nodes only; links are http(s) only). */
export function renderInline(text: string, onCitation: ((c: Citation) => void) | undefined, keyBase = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let plain = '';
  let k = 0;
  const flush = () => {
    if (plain) out.push(plain);
    plain = '';
  };
  for (let i = 0; i < text.length; ) {
    const ch = text[i];
    let m: RegExpExecArray | null;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!>]/.test(text[i + 1] ?? '')) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`' && (m = at(CODE, text, i))) {
      flush();
      out.push(<code key={`${keyBase}${k++}`}>{(m[2] ?? '').replace(/^ (.*) $/s, '$1')}</code>);
      i += m[0].length;
      continue;
    }
    if (ch === '[' && (m = at(CITATION, text, i))) {
      flush();
      const label = m[0];
      for (const [n, span] of citationSpans(m[1] ?? '').entries()) {
        const words = span.start === span.end ? `line ${span.start}` : `lines ${span.start} to ${span.end}`;
        out.push(
          <button
            key={`${keyBase}${k++}`}
            type="button"
            className="citation"
            aria-label={`Show log ${words}`}
            onClick={() => onCitation?.(span)}
          >
            {n === 0 && citationSpans(m[1] ?? '').length === 1 ? label : span.start === span.end ? `L${span.start}` : `L${span.start}-L${span.end}`}
          </button>,
        );
      }
      i += m[0].length;
      continue;
    }
    if (ch === '[' && (m = at(LINK, text, i))) {
      flush();
      out.push(
        <a key={`${keyBase}${k++}`} href={m[2]} target="_blank" rel="noopener noreferrer">
          {renderInline(m[1] ?? '', onCitation, `${keyBase}${k}l`)}
        </a>,
      );
      i += m[0].length;
      continue;
    }
    if ((ch === '*' || ch === '_') && (m = at(BOLD, text, i))) {
      flush();
      out.push(<strong key={`${keyBase}${k++}`}>{renderInline(m[2] ?? '', onCitation, `${keyBase}${k}b`)}</strong>);
      i += m[0].length;
      continue;
    }
    if ((ch === '*' || (ch === '_' && !/\w/.test(text[i - 1] ?? ''))) && (m = at(ITALIC, text, i))) {
      flush();
      out.push(<em key={`${keyBase}${k++}`}>{renderInline(m[2] ?? '', onCitation, `${keyBase}${k}e`)}</em>);
      i += m[0].length;
      continue;
    }
    if (ch === 'h' && !/\w/.test(text[i - 1] ?? '') && (m = at(URL_RE, text, i))) {
      flush();
      out.push(
        <a key={`${keyBase}${k++}`} href={m[0]} target="_blank" rel="noopener noreferrer">
          {m[0]}
        </a>,
      );
      i += m[0].length;
      continue;
    }
    if (ch === '\n') {
      flush();
      out.push(<br key={`${keyBase}${k++}`} />);
      i++;
      continue;
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

export function Markdown({ text, onCitation }: MarkdownProps) {
  const blocks = parseBlocks(text);
  return (
    <>
      {blocks.map((b, n) => {
        const key = `b${n}`;
        switch (b.kind) {
          case 'heading': {
            const level = Math.min(6, b.level + 2);
            const Tag = `h${level}` as 'h3';
            return <Tag key={key}>{renderInline(b.text, onCitation, key)}</Tag>;
          }
          case 'paragraph':
            return <p key={key}>{renderInline(b.text, onCitation, key)}</p>;
          case 'code':
            return (
              <pre key={key} className="code" tabIndex={0} aria-label={b.lang ? `${b.lang} code` : 'code'}>
                <code>{b.text}</code>
              </pre>
            );
          case 'list': {
            const items = b.items.map((item, j) => <li key={j}>{renderInline(item, onCitation, `${key}-${j}`)}</li>);
            return b.ordered ? (
              <ol key={key} start={b.start}>
                {items}
              </ol>
            ) : (
              <ul key={key}>{items}</ul>
            );
          }
          case 'quote':
            return (
              <blockquote key={key}>
                <Markdown text={b.text} {...(onCitation ? { onCitation } : {})} />
              </blockquote>
            );
          case 'rule':
            return <hr key={key} />;
          default: {
            const never: never = b;
            return <Fragment key={key}>{String(never)}</Fragment>;
          }
        }
      })}
    </>
  );
}
