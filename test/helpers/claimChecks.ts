/**
 * The checks of `npm run bench -- claims` (bench/claims.ts) and of test/answer-claims.test.ts: sentences of an
 * offline answer that the log, the context or the workspace does not support, and citations
 * whose lines do not hold what the answer quotes with them. Pure: an answer, the stored log's
 * lines and the context in, problems out.
 */
import type { ChatContext } from '../../backend/answer/engine.js';
import type { Finding } from '../../protocol/types.js';
import { CLASS_LABEL } from '../../backend/answer/local/likely.js';

export interface Problem {
  kind: string;
  detail: string;
}

const CITE = /\[L(\d+)-L(\d+)\]/g;
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * The text of log lines a..b (1-based, inclusive), whitespace normalised. A CI's timestamp on each line
 * after the first (`2026-11-28T20:05:40.61Z `) is left out: a message wrapped over lines holds none.
 */
function linesText(log: string[], a: number, b: number): string {
  return norm(log.slice(a - 1, b).map((l, i) => (i === 0 ? l : l.replace(/^\s*\d{4}-\d\d-\d\dT[\d:.]+Z\s/, ''))).join('\n'));
}

/**
 * Whether the quoted text is what the cited lines hold: the quote (a trailing `…` cut off, as
 * answers clip long lines) is inside them. A quote the answer put together from several places
 * (`file::test`) holds when each of its parts is there.
 */
function quoteHolds(quote: string, cited: string, above = ''): boolean {
  const q = norm(quote.replace(/…$/, ''));
  if (q === '' || cited.includes(q)) return true;
  // A test's full title the runner prints over lines (mocha's `1) Suite` over `runs x:`, PHPUnit
  // testdox's class heading over `✘ test`): the cited line is the test's own title, without the
  // runner's marks, ending the quote; the rest of the quote is printed just above it.
  const title = cited.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s*/, '').replace(/^(?:[✘✔×✗]|\d+\))\s+/, '').replace(/:$/, '');
  if (title.length >= 3 && q.endsWith(` ${title}`) && above.includes(q.slice(0, -title.length - 1).trim())) return true;
  // A place the answer writes as `file:line[:col]` from the tool's own form (`ci.sh: line 2`,
  // `File "x.py", line 3`, `(Checker.java:375)`, `WorkflowScript: 77: ... column 241`).
  const place = /^(?:.*\/)?([\w.$-]+?|Jenkinsfile \(WorkflowScript\))(?:\.(\w+))?:(\d+)(?::(\d+))?$/.exec(q.replace(/^Jenkinsfile \((WorkflowScript)\)/, '$1'));
  if (place) {
    const [, stem, ext, line, col] = place;
    // A place read off a unified diff (a formatter's `-d` output): the cited line is the hunk's
    // header, the file is the nearest `+++ file` above it and the line is inside the hunk's new range.
    const hunk = /^(?:\d{4}-\d\d-\d\dT[\d:.]+Z\s*)?@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(cited);
    if (hunk) {
      // isort labels its sides `file:before` / `file:after`.
      const file = [...above.matchAll(/\+\+\+ (?:b\/)?(\S+)/g)].pop()?.[1]?.replace(/:(?:before|after)$/, '');
      const start = Number(hunk[1]);
      const n = Number(line);
      return file !== undefined && file.endsWith(`${stem}${ext ? `.${ext}` : ''}`) && n >= start && n < start + Number(hunk[2] ?? 1);
    }
    // A script's line 1 is its shebang: an interpreter env or the kernel could not start
    // (`/usr/bin/env: 'bash\r': No such file or directory`, `bad interpreter`), for the script the command above ran.
    if (line === '1' && col === undefined && /\\r['’]?: No such file or directory|bad interpreter/.test(cited)) return above.includes(`${stem}${ext ? `.${ext}` : ''}`);
    // A report that names the file once over its rows (htmlhint's `L18 |`, eslint's stylish `18:5  error`):
    // the cited line is the row with the line number, the file is named above it.
    const row = /^\s*(?:L(\d+)\b|(\d+):(\d+)\s)/.exec(cited.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z\s*/, ''));
    if (row && (row[1] ?? row[2]) === line && above.includes(`${stem}${ext ? `.${ext}` : ''}`)) return col === undefined || row[3] === undefined || row[3] === col;
    // Maven's model problem at a POM line (`... @ line 16, column 19`): the POM is the project's, named by its form.
    if (stem === 'pom' && ext === 'xml' && new RegExp(`@ line ${line}, column ${col ?? '\\d+'}\\b`).test(cited)) return true;
    const named = cited.includes(`${stem}${ext ? `.${ext}` : ''}`) || cited.includes(stem!);
    return named && new RegExp(`\\b${line}\\b`).test(cited) && (col === undefined || new RegExp(`\\b${col}\\b`).test(cited));
  }
  // A message the answer put together from its lines (`error: x (symbol: y)`): each part is there.
  const parts = q.split(/ \(|; |\)$/).map(norm).filter((p) => p.length >= 3);
  if (parts.length > 1 && parts.every((p) => cited.includes(p))) return true;
  // A signal the answer names by its number's name: `SIGSEGV` for "Segmentation fault".
  // The shell reports a signal by its description (`Aborted`, `Killed`): the answer names it by its number's name.
  const SIGNAL_WORDS: Record<string, RegExp> = { SIGSEGV: /Segmentation fault/, SIGABRT: /\bAborted\b/, SIGKILL: /\bKilled\b/, SIGTERM: /\bTerminated\b/, SIGBUS: /\bBus error\b/, SIGFPE: /Floating point exception/, SIGILL: /Illegal instruction/ };
  if (SIGNAL_WORDS[q]?.test(cited)) return true;
  // A test id the answer put together (`file::name`, `Suite › name`, `Class.method`): its last part is there.
  const last = q.split(/::| › | > |#|: /).pop()!.trim();
  if (last !== q && last.length > 0 && cited.includes(last)) return true;
  if (/^[\w.$]+\.\w+$/.test(q) && cited.includes(q.slice(q.lastIndexOf('.') + 1))) return true;
  // Continuation markers of a clipped code block, or a clip inside: each piece is there.
  const pieces = q.split('…').map(norm).filter((p) => p.length > 0);
  return pieces.length > 1 && pieces.every((p) => cited.includes(p));
}

/** Every `[La-Lb]` citation in range, and the text quoted with it held by those lines. */
export function checkCitations(text: string, log: string[]): Problem[] {
  const problems: Problem[] = [];
  for (const m of text.matchAll(CITE)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (a < 1 || b < a || b > log.length) problems.push({ kind: 'citation-out-of-range', detail: `${m[0]} (the log has ${log.length} lines)` });
  }
  // `[La-Lb]: `quote`` (a headline) and `quote` [La-Lb] (an inline citation).
  // Inline code is `x`, or ``x`` when x holds a backtick.
  const after = /\[L(\d+)-L(\d+)\]:? (?:``((?:(?!``)[^\n])+?)``|`([^`\n]+)`)(?! \[L)/g;
  const before = /(?:``((?:(?!``)[^\n])+?)``|`([^`\n]+)`) \[L(\d+)-L(\d+)\]/g;
  const pairs: { a: number; b: number; quote: string }[] = [];
  for (const m of text.matchAll(after)) pairs.push({ a: Number(m[1]), b: Number(m[2]), quote: (m[3] ?? m[4])! });
  for (const m of text.matchAll(before)) pairs.push({ a: Number(m[3]), b: Number(m[4]), quote: (m[1] ?? m[2])! });
  for (const { a, b, quote } of pairs) {
    if (b > log.length) continue;
    const cited = linesText(log, a, b);
    if (!quoteHolds(quote, cited, linesText(log, Math.max(1, a - 40), a - 1))) problems.push({ kind: 'citation-mismatch', detail: `[L${a}-L${b}] quotes \`${quote.slice(0, 100)}\` but holds \`${cited.slice(0, 100)}\`` });
  }
  // Code blocks under a citation: each quoted line is the log's line.
  const block = /\[L(\d+)-L(\d+)\][^\n]*\n```text\n([\s\S]*?)\n```/g;
  for (const m of text.matchAll(block)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (b > log.length) continue;
    const want = log.slice(a - 1, b).map(norm);
    for (const line of m[3]!.split('\n')) {
      const l = norm(line);
      if (l === '' || /^… \(?\d+ more lines?/.test(l) || /^…$/.test(l) || /^\[\.\.\. .* folded \.\.\.\]$/.test(l)) continue;
      if (!want.some((w) => w === l || (l.endsWith('…') && w.startsWith(norm(l.slice(0, -1)))))) {
        problems.push({ kind: 'citation-mismatch', detail: `block [L${a}-L${b}] shows \`${l.slice(0, 100)}\`, not one of its lines` });
        break;
      }
    }
  }
  return problems;
}

/** The findings the analyzer stored with the excerpts, top first. */
function findingsOf(context: ChatContext): Finding[] {
  return context.failureExcerpts.map((e) => (e as unknown as { finding?: Finding }).finding).filter((f): f is Finding => f !== undefined);
}

const ASSERTION_EVIDENCE = /assert|ComparisonFailure|, want |' failed|\bgot\b.*\bwant\b|\bwant\b.*\bgot\b|expected|expect\(|but was|to(Be|Equal|Match)|should (be|equal|have)|\bactual\b|left:|right:|not equal|!=|differ/i;
/**
 * A runner's check that failed without the word "assert": pytest.raises, ctest's output regex, Go's `got:` over
 * `want:` blocks, and a Go test's own report under its `--- FAIL:` heading (`x_test.go:12: Decode(...) = "..."`:
 * t.Error/t.Fatal, how Go tests check; a panic prints `panic:` there instead), or the same report under the
 * test's `=== CONT`/`=== RUN` heading, where `go test -v` streams it (parallel subtests report there).
 */
const CHECK_EVIDENCE = /DID NOT RAISE|Required regular expression not found|^(?:\S+Z )?\s*got:\s*$[\s\S]{0,2000}?^(?:\S+Z )?\s*want:\s*$|^(?:\S+Z )?\s*--- FAIL: \S+.*\n(?:(?:\S+Z )?\s+--- FAIL: .*\n)*(?:\S+Z )?\s+[\w./-]+_test\.go:\d+: |^(?:\S+Z )?\s*=== (?:CONT|RUN|PAUSE)\s+\S+\n(?:\S+Z )?\s+[\w./-]+_test\.go:\d+: (?![\s\S]{0,300}?panic:)/m;
const COMPILER_EVIDENCE = /\b(error|warning)\b.*:|\berror[[: ]|cannot find symbol|\berror TS\d|Compilation failed|COMPILATION ERROR|\bundefined: |syntax error|SyntaxError|does not compile|expected .* found|unresolved reference|type mismatch/i;
const LINKER_ONLY = /undefined reference to|ld returned|unresolved external symbol|ld: (library|symbol)|linker command failed|cannot find -l/;

/** Sentences (prose, not quoted log text) of an answer: code blocks and inline code removed. */
export function proseOf(text: string): string {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/``[^\n]*?``/g, '`Q`')
    .replace(/`[^`\n]*`/g, '`Q`');
}

function has(ctx: ChatContext, pick: (bd: Record<string, unknown>) => unknown): boolean {
  const bd = (ctx.ciContext.buildDetails ?? {}) as Record<string, unknown>;
  const v = pick(bd);
  return v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0);
}

/**
 * Sentences that state what the evidence does not hold. Each kind is a shape of claim and the
 * evidence it needs; the evidence is looked for in the whole log (so a quotation never counts)
 * and in the context.
 */
export function checkClaims(question: string, text: string, log: string[], context: ChatContext): Problem[] {
  const problems: Problem[] = [];
  const prose = proseOf(text);
  const whole = log.join('\n');
  const add = (kind: string, detail: string) => problems.push({ kind, detail });
  const sentenceWith = (re: RegExp): string => {
    const m = re.exec(prose);
    if (!m) return '';
    const start = Math.max(prose.lastIndexOf('\n', m.index), prose.lastIndexOf('. ', m.index)) + 1;
    const end = prose.indexOf('\n', m.index);
    return norm(prose.slice(start, end < 0 ? undefined : end)).slice(0, 160);
  };
  const findings = findingsOf(context);
  const top = findings[0];
  const previousKnown = has(context, (bd) => bd.previousBuild) || has(context, (bd) => bd.history) || has(context, (bd) => bd.recentBuilds);
  const changesKnown = has(context, (bd) => bd.changes) || has(context, (bd) => (bd.lastSuccessfulBuild as Record<string, unknown> | undefined)?.changesSince);

  // A likely class (core/finding/classModel.ts) is a guess: a sentence naming it counts as hedged only when it
  // says so (backend/answer/local/likely.ts: "It looks like X (...), but no rule's evidence establishes it.",
  // "If it is X (...; no rule's evidence establishes it), ..."). Hedged sentences are not class claims below;
  // the guessed class named anywhere else is stated as fact.
  const likely = top?.class === 'unknown' ? top.likely_class : undefined;
  const sentences = prose.split(/(?<=[.!?])\s+|\n/);
  const isHedged = (s: string): boolean => HEDGED.test(s);
  // (Another excerpt's finding may establish that class: then the answer may name it.)
  if (likely && !findings.some((f) => f.class === likely.class)) {
    const label = CLASS_LABEL[likely.class];
    for (const s of sentences) if (s.includes(label) && !isHedged(s)) add('guess-stated', `names the likely class ${likely.class} as fact: "${norm(s).slice(0, 160)}"`);
  }
  const claimed = sentences.filter((s) => !isHedged(s)).join('\n');
  // Class words: an assertion needs an assertion in the log; a compile error a compiler's error.
  const assertionWords = /\b(assertion|its check did not hold|check did not hold|the test's check)\b/i;
  if (assertionWords.test(claimed) && !ASSERTION_EVIDENCE.test(whole) && !CHECK_EVIDENCE.test(whole)) add('class-word', `says assertion, the log shows none: "${sentenceWith(assertionWords)}"`);
  const compileWords = /\b(compiler rejected|did not compile|compile error|compilation error)\b/i;
  if (compileWords.test(claimed) && LINKER_ONLY.test(whole) && !COMPILER_EVIDENCE.test(whole.replace(/.*(undefined reference|ld returned|collect2|linker command failed).*/g, ''))) {
    add('class-word', `calls a link error a compile error: "${sentenceWith(compileWords)}"`);
  }
  // Values: "returned X" / "got X" only when X is in the log.
  for (const m of text.matchAll(/\b(?:returned|got|was) `([^`\n]+)`/g)) {
    const value = m[1]!.replace(/…$/, '');
    if (!whole.includes(value)) add('invented-value', `states a value the log does not hold: ${m[0]}`);
  }
  if (/\b(the code|it) returned\b(?! `)/i.test(prose)) add('invented-value', `"returned" without a value: "${sentenceWith(/\b(the code|it) returned\b/i)}"`);
  // History: earlier builds and flakiness need the context's earlier builds.
  const historyClaim = /\b(passed before|was green before|(previous|last|earlier) build (passed|failed|succeeded|was (green|red))|has been failing|failing since|first time (it|this) failed|it is flaky|this is flaky|(is|looks|seems) (flaky|intermittent)|fails intermittently|usually passes)\b/i;
  const historySentence = sentenceWith(historyClaim);
  if (historyClaim.test(prose) && !previousKnown && !/can't tell|cannot tell|can't prove|does not say|whether|if it passes|unless|cannot show/i.test(historySentence)) add('history-without-data', `"${sentenceWith(historyClaim)}"`);
  // The last change: a commit or diff must be in the context.
  const changeClaim = /\b(the|a|your|this) (last|latest|recent|most recent)? ?(change|commit|diff)\b[^.\n]*\b(broke|introduced|caused|made|changed|renamed|removed)\b|\bthe change that (made|broke|caused|introduced)\b/i;
  if (changeClaim.test(prose) && !changesKnown) add('change-without-diff', `"${sentenceWith(changeClaim)}"`);
  // Answers that do not answer: a word of the question matched in the log ("code", "me"...).
  const wordMatch = /^I can't answer that from the build facts, but the log mentions `Q` here/.exec(prose);
  if (wordMatch) add('word-match-non-answer', `"${norm(text.split('\n')[0] ?? '').slice(0, 120)}"`);
  if (/^I can't answer that from the uploaded context\./.test(prose)) add('not-understood', norm(question));
  // Contradictions of the finding: no test names although the finding names the failing test.
  if (/I found no failing test names/.test(prose) && findings.some((f) => f.test && whole.includes(f.test.name.replace(/^.*(::|#|\.)/, '')))) {
    add('contradicts-finding', `"no failing test names" but the finding names ${findings.find((f) => f.test)?.test?.name}`);
  }
  // "I can't answer" about infrastructure or code when the finding's class settles it.
  // A re-run advised as the next step for a failure that depends on the code, not on timing.
  const deterministic = top !== undefined && ['compile-error', 'link-error', 'lint', 'test-assertion', 'ci-script'].includes(top.class);
  if (deterministic && /\bre-run the build without changes; if it passes\b/.test(prose)) add('generic-advice', `advises a re-run for ${top.class}`);
  // A headline quoting a framing line instead of the error.
  const headline = /first real error is \[L(\d+)-L\d+\]:? (``?)(.+?)\2(?!`)/i.exec(text);
  if (headline && FRAMING.test(headline[3]!.trim())) add('framing-headline', headline[3]!.slice(0, 120));
  // "The first real error" of a line whose finding establishes no class.
  else if (headline && top?.class === 'unknown' && Number(headline[1]) === top.message_line) add('unknown-called-error', headline[3]!.slice(0, 120));
  const garbage = /(?<!the )\bundefined\b(?! (case|property|reference|variable|name|symbol|behaviou?r))|\bNaN\b|\[object Object\]/;
  if (garbage.test(prose)) add('garbage', sentenceWith(garbage));
  return problems;
}

/** A sentence that names a class as a guess: "looks like" / "If it is", and that no rule's evidence establishes it. */
const HEDGED = /^(?=.*\b(?:It looks like|If it is)\b)(?=.*\bno rule's evidence establishes it\b)/;

/** Lines that frame or conclude an error rather than state it. */
const FRAMING =
  /^(\[ERROR\] )?(COMPILATION ERROR :?|Failures:|Errors:|Tests run:.*|BUILD FAILURE|Failed to execute goal \S+ \([^)]*\) on project [\w.-]+:?|-> \[Help 1\])$|^WARNING: Retrying|^Finished: (FAILURE|UNSTABLE|ABORTED)$|script returned exit code \d+$|^(ERROR: )?script returned exit code \d+$|^Build step '.*' marked build as failure$|^make(\[\d+\])?: \*\*\* .*Error \d+$|^npm ERR! (code|errno|A complete log|Test failed).*$|^(FAILED|FAIL|ERROR)$|^Process completed with exit code \d+\.?$|^The command ".*" exited with \d+\.?$|^error: Could not compile|^ERROR: Build failed|^Traceback \(most recent call last\):$|^=+ (FAILURES|ERRORS) =+$|^\d+ (failed|errors?)(, \d+ \w+)* in [\d.]+s$/;

/** Every problem of one answer. */
export function checkAnswer(question: string, text: string, log: string[], context: ChatContext): Problem[] {
  return [...checkCitations(text, log), ...checkClaims(question, text, log, context)];
}
