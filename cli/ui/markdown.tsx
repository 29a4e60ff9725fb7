/** The Ink components of the Markdown renderer; the rendering itself is in markdownText.ts (no React, so `cichat ask` can use it). */
import React from 'react';
import { Box, Text } from 'ink';
import { markdownLines, type StyledLine } from './markdownText.js';

export * from './markdownText.js';

/** Renders styled lines, one Ink Text per line (empty lines keep their height). */
export function StyledLines({ lines }: { lines: StyledLine[] }): React.JSX.Element {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate">
          {line.length === 0
            ? ' '
            : line.map((s, j) => (
                <Text key={j} bold={s.bold} italic={s.italic} dimColor={s.dim} color={s.color} underline={s.citation}>
                  {s.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}

/** Markdown rendered for the terminal at `width` columns. */
export function Markdown({ text, width }: { text: string; width: number }): React.JSX.Element {
  return <StyledLines lines={markdownLines(text, width)} />;
}
