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
import type { LiveAnswer } from './useChatSession.js';
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

export function Conversation({
  pairs,
  live,
  width,
  height,
  scroll = 0,
}: {
  pairs: QaPair[];
  live: LiveAnswer | null;
  width: number;
  height: number;
  scroll?: number;
}): React.JSX.Element {
  const done = useMemo(() => pairLines(pairs, width), [pairs, width]);
  const waiting = live !== null && live.phase !== 'stopped';
  const rows = Math.max(1, height - (waiting ? 1 : 0));
  const streaming = live ? liveLines(live, width, rows + scroll + 1) : [];
  const all = streaming.length > 0 ? [...done, ...streaming] : done;
  const end = Math.max(0, all.length - scroll);
  const shown = all.slice(Math.max(0, end - rows), end);
  if (all.length === 0 && !live) {
    return (
      <Box flexDirection="column" height={height}>
        <Text dimColor>No questions yet. Type one below, e.g. “why did the last build fail?”</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={height}>
      <StyledLines lines={shown} />
      {waiting ? (
        <Text color="cyan">
          <Spinner type="dots" /> {live.phase === 'waiting' ? 'thinking…' : 'answering…'}
          {scroll > 0 ? <Text dimColor>  (scrolled back {scroll} lines)</Text> : null}
        </Text>
      ) : null}
    </Box>
  );
}
