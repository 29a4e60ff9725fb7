/**
 * "How do I fix it?" for the data file a failing line reads (session 49, helper fx11; the lines come from
 * jenkins/workspace/dataFiles.ts as clue snippets): the line of it the error points at, or the workspace file like
 * the one the line names when that one is not where the program looks. Each sentence cites its line.
 */
import { inlineCode } from '../logtext.js';
import { clip, type Clue } from './clueLine.js';

/** The step for one clue of dataFiles.ts, or undefined when the clue is not one of them. */
export function dataFileStep(c: Clue): string | undefined {
  const at = inlineCode(`${c.snippet.path}:${c.line}`);
  const code = c.code ? ` (${inlineCode(clip(c.code))})` : '';
  let m: RegExpExecArray | null;
  if ((m = /^is where the parse error's position falls in (\S+), the file (the failing code reads|the error names)$/.exec(c.what))) {
    // A closing bracket right after a line that ends with a comma: JSON's trailing comma.
    const lines = c.snippet.text.split('\n');
    const k = c.line - c.snippet.startLine;
    let prev = k - 1;
    while (prev >= 0 && (lines[prev] ?? '').trim() === '') prev--;
    const before = prev >= 0 ? (lines[prev] as string).trim() : '';
    const trailing = /^[}\]]/.test(c.code) && before.endsWith(',');
    return `${at} is where the position the parser names falls in ${inlineCode(m[1] as string)}, the file ${m[2] as string}${code}${trailing ? `, and the line before it, ${c.snippet.startLine + prev}, ends with a comma (${inlineCode(clip(before))}): JSON allows no trailing comma before a closing bracket, so remove it there` : ': fix the file there'}.`;
  }
  if ((m = /^holds (\S+), which the error names, in (\S+), the file (the failing code reads|the error names)$/.exec(c.what))) {
    return `${at} holds ${inlineCode(m[1] as string)}${code}, which the error names, in ${inlineCode(m[2] as string)}, the file ${m[3] as string}: the file and the code that reads it disagree. Change it in the file, or make the code accept it; I can't tell from the log which side is out of date.`;
  }
  if ((m = /^is a file like (\S+), which (the failing code reads|the error names) and is not where it looks(?:; on the classpath it is (\S+))?(; one of two)?$/.exec(c.what))) {
    const path = m[3] ?? c.snippet.path;
    return `The workspace has ${inlineCode(c.snippet.path)}, a file like ${inlineCode(m[1] as string)}, which ${m[2] as string} and which is not where the program looks${m[3] ? ` (on the classpath, from its \`resources/\` directory, it is ${inlineCode(m[3])})` : ''}: if it is the file meant, point the program at it (${inlineCode(path)}), or move it back${m[4] ? '; the workspace has two such files, and I can\'t tell which one was meant' : ''}.`;
  }
  return undefined;
}
