/**
 * The conversation: questions, answers rendered as Markdown, the answer streaming in. Only the
 * tail that fits `height` rows is drawn (minus `scroll` rows when the user scrolled back).
 */
import React, { useMemo } from 'react';
import { Box, Text } from 'ink';
import Spinner from 'ink-spinner';
import type { QaPair } from '../../protocol/types.js';
import { sourcesText } from '../sources.js';

export { sourcesText };
import type { LiveAnswer } from './answerStream.js';
import { StyledLines, markdownLines, markdownTail, wrapSegments, type StyledLine } from './markdown.js';

function questionLines(question: string, width: number): StyledLine[] {
  return wrapSegments([{ text: '› ', color: 'green', bold: true, keep: true }, { text: question, bold: true }], width, [{ text: '  ', keep: true }]);
}

/** The styled lines of finished pairs (memoised by the caller: they do not change while streaming). */
export function pairLines(pairs: QaPair[], width: number): StyledLine[] {
  const out: StyledLine[] = [];
  for (const pair of pairs) {
    out.push(...questionLines(pair.question.content, width));
    const answer = pair.answer;
    if (answer) {
      if (answer.content) out.push(...markdownLines(answer.content, width));
      const sources = sourcesText(answer.sources);
      if (sources) out.push(...wrapSegments([{ text: sources, dim: true }], width, [{ text: '  ', keep: true }]));
      if (answer.status === 'interrupted') out.push([{ text: '⏹ interrupted', color: 'yellow' }]);
      else if (answer.status === 'failed') out.push([{ text: '✗ failed', color: 'red' }]);
      else if (answer.status === 'streaming') out.push([{ text: '… still streaming', dim: true }]);
    } else out.push([{ text: '(no answer)', dim: true }]);
    out.push([]);
  }
  return out;
}

/** The streaming answer: only its last `rows` lines or so are rendered (see markdownTail). */
export function liveLines(live: LiveAnswer, width: number, rows = Number.MAX_SAFE_INTEGER): StyledLine[] {
  const out = questionLines(live.question, width);
  if (live.text) {
    const tail = markdownTail(live.text, width, rows);
    // The question is shown only when the whole answer was rendered below it.
    if (tail.length >= rows) return [...tail, ...(live.phase === 'stopped' ? [[{ text: '⏹ interrupted', color: 'yellow' }]] : [])];
    out.push(...tail);
  }
  if (live.phase === 'stopped') out.push([{ text: '⏹ interrupted', color: 'yellow' }]);
  return out;
}

/** What the conversation shows for a scroll position: the lines, and how many are above and below them. */
export interface ConversationFrame {
  lines: StyledLine[];
  /** Lines hidden above the first shown one (0 at the top of the conversation). */
  above: number;
  /** Lines hidden below the last shown one (the scroll position, clamped). */
  below: number;
  /** The furthest the view can scroll back: the first line of the conversation at the top. */
  maxScroll: number;
  /** The answer is still coming (a spinner row is kept under the lines). */
  waiting: boolean;
}

/**
 * Lays out `height` rows: a spinner row while an answer comes, a "more below" row when
 * scrolled back, a "more above" row when the first line is not shown. The scroll position is
 * clamped, so PgUp stops at the first line of the conversation (never half-empty pages).
 */
export function conversationFrame(done: StyledLine[], live: LiveAnswer | null, width: number, height: number, scroll: number): ConversationFrame {
  const waiting = live !== null && live.phase !== 'stopped';
  const rows = Math.max(1, height - (waiting ? 1 : 0));
  const wanted = Math.max(0, scroll);
  const streaming = live ? liveLines(live, width, rows + wanted + 1) : [];
  const all = streaming.length > 0 ? [...done, ...streaming] : done;
  // Scrolled back, the bottom row says what is below; at the top, no row says what is above.
  const maxScroll = all.length <= rows ? 0 : all.length - Math.max(1, rows - 1);
  const below = Math.min(wanted, maxScroll);
  let room = below > 0 ? Math.max(1, rows - 1) : rows;
  const end = all.length - below;
  let start = Math.max(0, end - room);
  if (start > 0 && room > 1) {
    room -= 1;
    start = end - room;
  }
  return { lines: all.slice(start, end), above: start, below, maxScroll, waiting };
}

export function Conversation({
  pairs,
  live,
  width,
  height,
  scroll = 0,
  frame,
}: {
  pairs: QaPair[];
  live: LiveAnswer | null;
  width: number;
  height: number;
  scroll?: number;
  /** The layout, when the caller computed it already (the App needs maxScroll for the keys). */
  frame?: ConversationFrame;
}): React.JSX.Element {
  const done = useMemo(() => (frame ? [] : pairLines(pairs, width)), [frame, pairs, width]);
  const f = frame ?? conversationFrame(done, live, width, height, scroll);
  if (f.lines.length === 0 && !live) {
    return (
      <Box flexDirection="column" height={height}>
        <Text dimColor>No questions yet. Type one below, e.g. “why did the last build fail?”</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height}>
      {f.above > 0 ? (
        <Text dimColor wrap="truncate">
          ↑ {f.above} more line{f.above === 1 ? '' : 's'} above (PgUp)
        </Text>
      ) : null}
      <StyledLines lines={f.lines} />
      {f.below > 0 ? (
        <Text dimColor wrap="truncate">
          ↓ {f.below} more line{f.below === 1 ? '' : 's'} below (PgDn)
        </Text>
      ) : null}
      {f.waiting && live ? (
        <Text color="cyan">
          <Spinner type="dots" /> {live.phase === 'waiting' ? 'thinking…' : 'answering…'}
        </Text>
      ) : null}
    </Box>
  );
}
