/**
 * `go test -json` and `go build -json` logs: one JSON event a line. The analyzer and the finding read
 * what the tool printed, the event's Output, as `go test -v` would have printed it.
 */
import { stripConsoleMarkup } from './clean.js';
import { codeAt } from './str.js';

/**
 * cmd/test2json's TestEvent (`{"Time":...,"Action":"output","Package":...,"Test":...,"Output":"..."}`; Time is left
 * out for a cached result) and Go 1.24's BuildEvent (`{"ImportPath":...,"Action":"build-output","Output":...}`).
 */
const GO_JSON_EVENT = /^\{"(?:Time|ImportPath)":"[^"]*",(?:"[A-Za-z]+":(?:"[^"]*"|[\d.]+),)*"Action":"|^\{"Action":"/;

/**
 * The text a Go JSON event line stands for: its Output without the newline (and any colour), or '' for an event
 * without one (`run`, `pass`, `fail`, `skip`: the `=== RUN` and `--- FAIL` output events say the same).
 * Undefined for any other line, or one that does not parse (cut).
 */
export function goJsonText(line: string): string | undefined {
  if (codeAt(line, 0) !== 123 || !GO_JSON_EVENT.test(line)) return undefined;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null || typeof (event as { Action?: unknown }).Action !== 'string') return undefined;
  const output = (event as { Output?: unknown }).Output;
  return typeof output === 'string' ? stripConsoleMarkup(output.replace(/\r?\n$/, '')) : '';
}
