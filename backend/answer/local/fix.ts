/**
 * "How do I fix it?" (issue 25, point 3): its own answer, not the diagnosis again. The remedy
 * for the finding's class and its details (the compiler's code, the exception, the missing
 * symbol or library, the unreachable host, the version not found), the source line from the
 * workspace when the context holds it, the changes since the last green build, a command that
 * reproduces the failure locally, and "I can't tell which fix is right" where that is the truth.
 */
import { noAgentLabel } from '../../../core/finding/noAgent.js';
import { bodyOf } from '../../../core/finding/body.js';
import { STEP_START } from '../../../core/log/failingStep.js';
import { buildLabel, envOf } from '../facts.js';
import { clip, exitCodeMeaning, failingStepOf, inlineCode, linesOf, storedLogSpan, withoutStamp, type LogSpan } from '../logtext.js';
import { around } from './remedyShape.js';
import { describeChange } from './change.js';
import { blocksTheErrorNames, changeDiffStep, changesNotReadStep, changesOf, movedAwayOperand, scriptAndErrorLine } from './changeDiff.js';
import { quotedOperands } from './changeQuoted.js';
import { stoppedScript } from './stoppedScript.js';
import { valueRead } from './changeValue.js';
import { TESTS_BEFORE } from './fixWhatNeeds.js';
import { commandOutput, greenBuildOf, CLASS_LABEL } from './failure.js';
import { abortedBy, at, citeMessage, docTestOf, findingFor, placeOf, reproduceCommand, toolShown } from './findingText.js';
import { classHedge } from './likely.js';
import { DUPLICATE_SYMBOL } from './remedyClass.js';
import { fixRemedies } from './remedies.js';
import { osConditionOf } from './osCondition.js';
import { changeLinePaths } from '../../../protocol/ciContext.js';
import type { Finding } from '../../../protocol/types.js';
import { hasLog, lineTextOf, rankedErrorExcerpts } from './logHelpers.js';
import { capitalise } from './outcome.js';
import { ReplyBuilder, type AnswerGroup, type Composer } from './reply.js';
import { clueSteps, cluesOf } from './clues.js';
import { jvmCallerNotInCheckout, withoutAbsentPlace } from './jvmLinkageSteps.js';
import { JVM_MISSING_CLASS_LABEL, JVM_RESOLVE_LABEL } from './jvmResolve.js';
import { checkoutPathOf } from './checkoutPaths.js';
import { programBuild } from './fixLogNames.js';
import { compilerNotesElsewhere, compilerSuggestions, rustPlacesElsewhere, SUGGESTING_TOOLS } from './compilerHelp.js';
import { linkDeclarationSteps, linkInputsStep, renamedDefinitionSteps } from './linkInputs.js';
import { TEST_FILE, testFrameOf } from './testFrame.js';
import { IMPORT_CYCLE } from './importCycle.js';
import { lastLines, nothingToFix, noLogHint } from './noError.js';
import { builtSourcesStep } from './builtSources.js';
import { emptyMakeVariable, emptyMakeVariableStep, unusedLoopVariable, unusedLoopVariableStep } from './makeEmpty.js';
import { callerOf, callerSource, portMismatch } from './fixNamed.js';
import { subjectCentre } from './subjectWindow.js';
import { maskedStageOf } from './pipeMasked.js';
import { silentStopOf } from './silentStop.js';
import { tlsRefusalFor } from './tlsRefusal.js';
import { failingSource, INNER_SCRIPT_LINE, isClue, missingSourceHint, nameTheCompilerSuggests, numbered, renamedIn, sameFile, scriptOfCommand, snippetsOf, type NamedByCompiler } from './workspace.js';

/** A commit's paths, when the context lists them (`affectedPaths`, `paths`, `files`). */
function pathsOf(change: unknown): string[] {
  if (typeof change !== 'object' || change === null) return [];
  const c = change as Record<string, unknown>;
  for (const key of ['affectedPaths', 'paths', 'files']) {
    const v = c[key];
    // The git plugin's change log lists `M src/a.c` (a status, then the path; a rename `R100 old -> new`).
    if (Array.isArray(v)) return v.flatMap((p: unknown) => (typeof p === 'string' ? changeLinePaths(p) : typeof p === 'object' && p !== null && typeof (p as { file?: unknown }).file === 'string' ? [(p as { file: string }).file] : []));
  }
  return [];
}

/** Commands that only wait, signal or print: never the one to reproduce. */
const TRIVIAL_COMMAND = /^(?:kill|sleep|wait|echo|printf|trap|set|exit|true|false|:|cd|export)\b|^[A-Za-z_]\w*=\S*$|^\(\(/;

/** Classes whose cause is in how the step ran (its settings, limits, hosts), not in the code it built. */
const STEP_CLASSES = new Set(['network', 'permission-credentials', 'missing-tool', 'ci-script', 'timeout-aborted', 'out-of-memory', 'disk-full', 'dependency-resolution', 'unknown']);

/** Classes where the step ran the project's own code (a program, its tests), which reads the step's environment. */
const RUN_CLASSES = new Set(['runtime-exception', 'test-assertion', 'test-error']);

/**
 * What the failing step set before the error, as `bash -x` echoed it: variables (`+ URL=http://...`,
 * an empty `+ TOKEN=`), exports and resource limits (`+ ulimit -v 400000`). Back from the error to
 * the step's start, at most 60 lines; each line cited.
 */
function stepSettings(stored: LogSpan, errorLine: number): { line: number; text: string; empty?: string }[] {
  const out: { line: number; text: string; empty?: string }[] = [];
  const from = Math.max(stored.start_line, errorLine - 60);
  const span = linesOf(stored, from, Math.min(errorLine, stored.end_line));
  if (!span) return out;
  const lines = span.text.split('\n');
  for (let i = lines.length - 1; i >= 0 && out.length < 6; i--) {
    const t = withoutStamp(lines[i] ?? '').trim();
    // The step's own shell only (core/log/failingStep.ts STEP_START): an earlier step's `export` is not in its environment.
    if (STEP_START.test(bodyOf(lines[i] ?? '').trim()) || /^Started by /.test(t)) break;
    // `npm run x` echoes the script it runs (`> pkg@1.0.0 x` over `> node --max-old-space-size=64 s.js`): its flags are settings too.
    const npm = /^> (\S.*)$/.exec(t);
    if (npm && /^> \S+@\S+ [\w:.-]+$/.test(withoutStamp(lines[i - 1] ?? '').trim()) && /\s--?[\w-]+/.test(npm[1] as string)) {
      out.unshift({ line: from + i, text: npm[1] as string });
      continue;
    }
    const m = /^\+{1,2} ((?:export )?([A-Za-z_]\w*)=(.*)|ulimit .+|export [A-Za-z_]\w*.*)$/.exec(t);
    if (!m) continue;
    out.unshift({ line: from + i, text: m[1] as string, ...(m[2] && (m[3] ?? '').trim() === '' ? { empty: m[2] } : {}) });
  }
  return out;
}

/**
 * A link error whose finding is the linker driver's summary (`collect2: error: ld returned 1`)
 * while the line above says what it was (`multiple definition of 'x'`): that line is the message.
 */
function withDuplicateSymbol(ctx: Parameters<typeof storedLogSpan>[0], f: Finding): Finding {
  if (f.class !== 'link-error' || DUPLICATE_SYMBOL.test(f.message)) return f;
  const stored = storedLogSpan(ctx);
  const span = stored ? linesOf(stored, Math.max(stored.start_line, f.message_line - 10), f.message_line) : undefined;
  if (!span) return f;
  const lines = span.text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = (lines[i] ?? '').trim();
    if (DUPLICATE_SYMBOL.test(t)) return { ...f, message: t.replace(/^\/\S*ld: /, ''), message_line: span.start_line + i, evidence: [span.start_line + i, ...f.evidence] };
  }
  return f;
}

export const fix: Composer = (ask) => {
  const { ci, ctx } = ask;
  const build = buildLabel(ci, true);
  const out = new ReplyBuilder();
  if (!hasLog(ctx)) {
    out.line(`The uploaded context holds no build log, so I can't tell how to fix ${build}.`);
    out.line();
    const hint = noLogHint(ci, build);
    for (const source of hint.sources) out.source(source);
    out.line(hint.text);
    return out.reply();
  }
  const spans: LogSpan[] = rankedErrorExcerpts(ctx).slice(0, 3);
  const top = spans[0];
  if (!top) {
    // A running build or a log with no outcome (maybe cut): nothing to fix yet, and what to do.
    const nothing = nothingToFix(ci, ctx, build);
    const tail = nothing ? lastLines(ctx) : undefined;
    if (tail) out.log(tail);
    out.line(nothing ?? `I found no error in the log of ${build}, so I can't tell what to fix. Ask *why did it fail?* to see how the log ends.`);
    return out.reply();
  }
  const found = findingFor(ctx, top);
  const f = withDuplicateSymbol(ctx, found);
  const lineText = lineTextOf(ctx, top);
  // The frame that called the raise site: read once, for the remedy's step and the source block below (fixNamed.ts).
  const called = callerOf(f, storedLogSpan(ctx));
  // Its place as the user's checkout names it, as the finding's is (checkoutPaths.ts).
  const caller = called && { ...called, frame: { ...called.frame, file: checkoutPathOf(ctx, called.frame.file) } };
  const remedy = fixRemedies(toolShown(f, ctx), storedLogSpan(ctx), lineText, caller);
  out.log({ start_line: f.message_line, end_line: f.message_line });
  for (const n of f.evidence) out.log({ start_line: n, end_line: n });

  // 1. The remedy for this class and this error.
  const label = silentStopOf(f, lineText) ? 'a command that failed without a message' : tlsRefusalFor(f, lineText) ? 'a TLS certificate the client refused' : f.class === 'unknown' ? 'the error' : noAgentLabel(f) ? 'a build no agent came for' : f.linkage?.stage === 'load' ? (f.tool === 'java' ? 'native code Java could not find' : 'a shared library the loader refused') : f.linkage?.stage === 'resolve' ? JVM_RESOLVE_LABEL : f.linkage?.stage === 'missing-class' ? JVM_MISSING_CLASS_LABEL : CLASS_LABEL[f.class];
  out.line(`**How to fix ${label}** (${inlineCode(clip(f.message, 140))} ${citeMessage(f, lineText)}):`);
  // The remedies (remedies.ts): the place to act, what the error's own words call for, what its class
  // generally does, the log lines they rest on; each step's lines cited.
  // A JVM linkage error raised in a class the checkout lacks (a jar's): no file of it to open (jvmLinkageSteps.ts).
  const absent = jvmCallerNotInCheckout(cluesOf(snippetsOf(ci)));
  // The test-order step's line: rewritten once the checkout's change is read (below, ux18).
  let testsBefore: number | undefined;
  for (const step of remedy.steps) {
    if (step.id === TESTS_BEFORE) testsBefore = out.size;
    out.line(`- ${withoutAbsentPlace(step.text, absent)}`);
    for (const n of step.lines) out.log({ start_line: n, end_line: n });
  }

  // An exit status for a headline: what the command printed before it is the evidence to start from.
  commandOutput(out, ctx, { start_line: f.message_line, end_line: f.message_line, text: '' }, f.message, f.message_line);

  // The compiler's own suggestion, quoted (rustc and clippy print the code they propose; for a target
  // not installed, rustc's `help: consider downloading the target with `rustup target add x``).
  const storedForHelp = (f.class === 'compile-error' || f.class === 'lint' || f.class === 'missing-tool') && SUGGESTING_TOOLS.test(f.tool ?? '') ? storedLogSpan(ctx) : undefined;
  const helps = storedForHelp ? compilerSuggestions(storedForHelp, f) : [];
  if (helps.length > 0) {
    out.line(`- ${capitalise(/clippy/.test(f.tool ?? '') ? 'clippy' : 'the compiler')} suggests: ${helps.map((h) => `${inlineCode(h.text)} ${at(h.line)}`).join('; ')}.`);
    for (const h of helps) out.log({ start_line: h.line, end_line: h.line });
  }

  // A C/C++ error whose note points to another file (the callee's declaration, a candidate): the other side.
  const notes = storedForHelp && f.class === 'compile-error' && !/rustc|clippy/.test(f.tool ?? '') ? compilerNotesElsewhere(storedForHelp, f) : [];
  for (const n of notes) {
    const [place, said] = n.text.split('|') as [string, string];
    out.line(`- The compiler's note names another place, ${inlineCode(checkoutPathOf(ctx, place))} ${at(n.line)}: ${inlineCode(said)}. The line to change may be that one rather than the error's.`);
    out.log({ start_line: n.line, end_line: n.line });
  }
  // rustc's help or note under the error that points to another file (the type without the trait).
  for (const p of storedForHelp && f.class === 'compile-error' && /rustc|clippy/.test(f.tool ?? '') ? rustPlacesElsewhere(storedForHelp, f) : []) {
    out.line(`- The compiler points to another file, ${inlineCode(p.place)} ${at(p.placeLine)}${p.code && p.codeLine ? ` (${inlineCode(p.code)} ${at(p.codeLine)})` : ''}: the change may belong there rather than at the error's line.`);
    for (const n of [p.placeLine, p.codeLine]) if (n !== undefined) out.log({ start_line: n, end_line: n });
  }

  // The last green build printed this error too: fixing it may not be enough.
  const green = greenBuildOf(ci);
  const fresh = (top as { new_since_baseline?: unknown }).new_since_baseline;
  if (green?.compared && fresh === false) {
    out.fact('buildDetails.lastSuccessfulBuild');
    out.line();
    out.line(`This error also appears in ${green.label}, which passed, so it may not be what broke the build; no error in this log is new since then.`);
  }

  // 2. The source line from the workspace, with the fix it suggests (similar names of the same kind).
  // The failing file as the workspace names it (the log may give the agent's absolute path).
  const loc = f.location;
  const snippetOfFile = loc ? snippetsOf(ci).find((x) => x.kind !== 'pipeline' && sameFile(x.path, loc.file) && !isClue(x)) : undefined;
  const relFile = snippetOfFile?.path ?? loc?.file;
  // A test's error placed in the code under test: the test's own line on the same stack (testFrame.ts).
  const testFrame = loc ? testFrameOf(storedLogSpan(ctx), f, snippetOfFile?.path, snippetsOf(ci).map((x) => x.path)) : undefined;
  // The closing "I can't tell which side is wrong" (remedy.unsure, its `sides`) is said once, not also in the source's Fix line (ux5).
  const named = helps.map((h) => ({ name: nameTheCompilerSuggests(h.text), line: h.line })).find((h): h is NamedByCompiler => h.name !== undefined);
  const source = failingSource(ask, spans, f.message, f, { ...(testFrame ? { checkAt: `${testFrame.file}:${testFrame.line}` } : {}), sidesSaid: remedy.unsure?.sides === true, ...(named ? { compilerName: named } : {}) }) ?? (f.location?.line !== undefined ? missingSourceHint(ask, spans) : undefined);
  // A make variable the log shows expanded to nothing on the failing rule's recipe (makeEmpty.ts): said below,
  // in place of "change the failing line as the error says" (that line is right; its value was not).
  const storedLog = storedLogSpan(ctx);
  const empty = emptyMakeVariable(storedLog, f, snippetsOf(ci));
  if (source) {
    out.line();
    const text = withoutRepeatedFix(source.text, remedy.steps.map((x) => x.text));
    out.line(empty ? text.replace(/\n\*\*Fix:\*\* change line \d+ of `[^`]+` as the error says .*$/m, '') : text);
    for (const s of source.sources) out.source(s);
  }

  // The failing line's values assigned further up its file (jenkins/workspace/origins.ts): `const outDir = process.env.DIST_DIR;`.
  const origins = source ? snippetsOf(ci).filter((x) => {
    const m = /^assigns \S+, which line (\d+) uses$/.exec(x.message ?? '');
    return m !== null && source.text.includes(`**In the source:** \`${x.path}:${m[1] as string}\``);
  }) : [];
  if (origins.length > 0) {
    out.line();
    out.line(`**Where its values are set**, further up ${inlineCode(origins[0]?.path ?? '')}: ${origins.map((o) => `line ${o.startLine} ${inlineCode(clip(o.text.trim(), 160))}`).join('; ')}.`);
    for (const o of origins) out.source({ kind: 'file', path: o.path, start_line: o.startLine, end_line: o.endLine });
  }

  if (empty && storedLog) {
    out.line();
    out.line(emptyMakeVariableStep(empty, storedLog, at));
    out.log({ start_line: empty.logLine, end_line: empty.logLine });
    out.source({ kind: 'file', path: empty.path, start_line: empty.recipeLine, end_line: empty.recipeLine });
    if (empty.origin) out.source({ kind: 'file', path: empty.path, start_line: empty.origin.startLine, end_line: empty.origin.endLine });
  }
  // Without the Makefile's line: what make's echoed loop shows (makeEmpty.ts).
  const loop = empty || source ? undefined : unusedLoopVariable(storedLog, f);
  if (loop) {
    out.line();
    out.line(unusedLoopVariableStep(loop, at));
    out.log({ start_line: loop.logLine, end_line: loop.logLine });
  }

  // The call that gave the raise site its values, from the workspace (fixNamed.ts).
  // The line the source block marks: the finding's, or the one it fell back to (a frame whose file the checkout has).
  const marked = source ? /\*\*In the source:\*\* `([^`]+):(\d+)`/.exec(source.text) : null;
  const call = callerSource(ci, caller, marked ? { path: marked[1] as string, line: Number(marked[2]) } : source && loc?.line !== undefined ? { path: relFile ?? loc.file, line: loc.line } : undefined);
  if (call) {
    out.line();
    out.line(call.text);
    out.log({ start_line: call.log_line, end_line: call.log_line });
    if (call.snippet) out.source({ kind: 'file', path: call.snippet.path, start_line: call.snippet.startLine, end_line: call.snippet.endLine });
  }

  // A refused connection: the port the client used against the ports the step's services were started on (fixNamed.ts).
  const ports = portMismatch(f, storedLogSpan(ctx), snippetOfFile);
  if (ports) {
    out.line();
    out.line(`**The ports:** ${ports.text}`);
    for (const n of ports.lines) out.log({ start_line: n, end_line: n });
    if (ports.snippet) out.source({ kind: 'file', path: ports.snippet.path, start_line: ports.snippet.startLine, end_line: ports.snippet.endLine });
  }

  // Where the workspace names what failed: the manifest line, the script's host, the declaring file.
  // Not when an earlier stage's failure, hidden by `| tee`, explains the step's missing file (pipeMasked.ts, ux10): the
  // workspace's lines that name that file are not where it went wrong.
  const clues = maskedStageOf(lineText, f) ? undefined : clueSteps(ask, f);
  const cluePaths = clues ? clues.sources.flatMap((x) => (x.kind === 'file' ? [x.path] : [])) : [];
  if (clues) {
    out.line();
    out.line(clues.text);
    for (const s of clues.sources) out.source(s);
  }

  // A symbol the linker could not find, defined in the workspace: that file is not in the link.
  if (f.class === 'link-error') {
    for (const d of snippetsOf(ci).filter((x) => / the symbol the linker could not find$/.test(x.message ?? '')).slice(0, 2)) {
      const name = /^defines (\S+),/.exec(d.message ?? '')?.[1] ?? f.symbol ?? '';
      const line = d.startLine + Math.max(0, d.text.split('\n').findIndex((l) => l.includes(name.split('::').pop() ?? name)));
      out.line();
      // A loader's refusal (core/finding/linkage.ts): the object loaded, not a link, lacked it.
      const loaded = f.linkage?.stage === 'load' ? f.linkage.object : undefined;
      out.line(
        loaded
          ? `**Where it is defined:** ${inlineCode(`${d.path}:${line}`)} defines ${inlineCode(name)}, so the code exists, but neither ${inlineCode(loaded)} nor a library the loader loaded with it holds it: most likely ${inlineCode(d.path)} is not built into the library it loaded (or the loader found another build of that library): build it into ${inlineCode(loaded.slice(loaded.lastIndexOf('/') + 1))} or a library it links, and make sure the loader finds that build.`
          : `**Where it is defined:** ${inlineCode(`${d.path}:${line}`)} defines ${inlineCode(name)}, so the code exists; most likely ${inlineCode(d.path)} is not compiled into this link (else the definition is \`static\` or compiled out): add it to the target that failed (its prerequisites in the Makefile, its sources in \`CMakeLists.txt\` \`add_executable\`/\`target_sources\`, or the library that holds it on the link line).`,
      );
      out.line(numbered(d, line, 10));
      out.source({ kind: 'file', path: d.path, start_line: d.startLine, end_line: d.endLine });
      const inputs = linkInputsStep(storedLogSpan(ctx), f.message_line, d.path);
      if (inputs) {
        out.line(inputs.text);
        for (const n of inputs.lines) out.log({ start_line: n, end_line: n });
      }
    }
  }

  if (f.class === 'link-error') linkDeclarationSteps(out, snippetsOf(ci), source?.text);
  // Neither defined nor declared: the caller of the old name and the definitions named like it (a rename the caller missed).
  const renamedSaid = f.class === 'link-error' && renamedDefinitionSteps(out, snippetsOf(ci), renamedIn(ci), source?.text);


  // The code a failing test exercises, when the workspace holds it: where the fix usually is.
  // (A test that timed out too: what it waited on is there.)
  const subjectOf = f.class === 'test-assertion' || f.class === 'test-error' || f.class === 'timeout-aborted' || f.class === 'out-of-memory' ? snippetsOf(ci).find((x) => /^code under test of /.test(x.message ?? '')) : undefined;
  if (subjectOf) {
    const subject = subjectOf;
    // Shown unless the source above already quotes it (naming its path is not showing it).
    const quoted = source?.text.includes(`**In the source:** \`${subject.path}:`) ?? false;
    if (!quoted) {
      const tester = /^code under test of (\S+)$/.exec(subject.message ?? '')?.[1];
      // The window opens at the definition of what the failing test calls, when past the file's first lines.
      const testSnippet = tester ? snippetsOf(ci).find((x) => x.path === tester && loc !== undefined && sameFile(x.path, loc.file)) : undefined;
      const block = numbered(subject, undefined, 30, subjectCentre(subject, f, testSnippet));
      const first = /\n[ >]\s*(\d+) \|/.exec(block)?.[1];
      const last = [...block.matchAll(/\n[ >]\s*(\d+) \|/g)].pop()?.[1];
      out.line();
      out.line(`**The code under test** (${inlineCode(subject.path)}, lines ${first ?? subject.startLine}-${last ?? subject.endLine}${tester ? `, which ${inlineCode(tester)} tests` : ''}):`);
      out.line(block);
      out.source({ kind: 'file', path: subject.path, start_line: subject.startLine, end_line: subject.endLine });
    }
  }

  // A test's error placed in the code under test: the test's own line on the same stack is the other half.
  // Not for a circular import: the test's import only started the loop; the project's modules close it (ux6).
  if (loc && testFrame && !IMPORT_CYCLE.test(f.message)) {
    out.log({ start_line: testFrame.log_line, end_line: testFrame.log_line });
    out.line();
    out.line(`**The test's own line:** ${inlineCode(`${testFrame.file}:${testFrame.line}`)} ${at(testFrame.log_line)} is the test file's frame on the same stack, which reached ${inlineCode(placeOf({ file: relFile ?? loc.file, line: loc.line }))}. Which of the two to change depends on which is right: what the test sets up, passes or expects there, or what the code does here.`);
  }

  // A program that crashed without a frame: its sources, as the build line above named them.
  const programSource = f.class === 'runtime-exception' && !f.location ? snippetsOf(ci).find((x) => /^source of \S+, built at log line \d+$/.test(x.message ?? '')) : undefined;
  if (programSource) {
    const [, program, line] = /^source of (\S+), built at log line (\d+)$/.exec(programSource.message ?? '') ?? [];
    out.log({ start_line: Number(line), end_line: Number(line) });
    out.line();
    out.line(`**The crashed program's source:** ${inlineCode(program ?? '')} was built from ${inlineCode(programSource.path)} ${at(Number(line))}; the log names no line in it, so run it under a debugger (\`gdb -batch -ex run -ex bt --args ${program ?? ''}\`) or rebuild with \`-g -fsanitize=address,undefined\` to get one. Lines ${programSource.startLine}-${programSource.endLine}:`);
    out.line(numbered(programSource, undefined, 30));
    out.source({ kind: 'file', path: programSource.path, start_line: programSource.startLine, end_line: programSource.endLine });
  }


  // No line of the failure in the log, nor a file of the workspace shown for it: the sources the build compiled.
  const defined = renamedSaid || (f.class === 'link-error' && snippetsOf(ci).some((x) => / the symbol the linker could not find$/.test(x.message ?? '')));
  const compiled = !defined && !subjectOf && !programSource && !testFrame && (f.class === 'link-error' || (!source && f.location?.line === undefined)) ? builtSourcesStep(storedLogSpan(ctx), f) : undefined;
  if (compiled) {
    out.line();
    out.line(compiled.text);
    for (const n of compiled.lines) out.log({ start_line: n, end_line: n });
  }

  // 3. What changed since the last green build, and whether a change touched the failing file.
  const changes = green?.changes ?? (Array.isArray(ci.buildDetails?.changes) ? ci.buildDetails?.changes : undefined);
  if (changes && changes.length > 0) {
    out.fact(green?.changes ? 'buildDetails.lastSuccessfulBuild' : 'buildDetails.changes');
    const since = green ? `since ${green.label}` : 'in this build';
    const file = relFile;
    const touching = file ? changes.filter((c) => pathsOf(c).some((p) => sameFile(p, file))) : [];
    // A commit that touched another file the evidence names (on the stack, the code under test, the
    // crashed program's source, a file the workspace clues name: the manifest, the script): as telling as the failing file.
    const frames = [loc?.frames?.project, loc?.frames?.raise].flatMap((x) => (x ? [x.file] : []));
    const named: { path: string; why: string }[] = [
      ...frames.map((p) => ({ path: p, why: 'on the stack of the error' })),
      ...(subjectOf ? [{ path: subjectOf.path, why: 'the code under test' }] : []),
      ...(testFrame ? [{ path: testFrame.file, why: "the test's own file on the stack" }] : []),
      ...(programSource ? [{ path: programSource.path, why: "the crashed program's source" }] : []),
      ...cluePaths.map((p) => ({ path: p, why: 'the file named above' })),
    ].filter((x) => !file || !sameFile(x.path, file));
    const touchedClue = changes.flatMap((c) => {
      let why = '';
      const hit = pathsOf(c).find((p) => named.some((q) => sameFile(p, q.path) && (why = q.why) !== ''));
      return hit && !touching.includes(c) ? [{ c, hit, why }] : [];
    });
    out.line();
    if (file && touching.length > 0) {
      out.line(`**The change ${since} that touched ${inlineCode(file)}:**`);
      for (const c of touching.slice(0, 3)) out.line(`- ${describeChange(c)}`);
    } else {
      const known = changes.some((c) => pathsOf(c).length > 0);
      out.line(`**Commits ${since}**${file && known ? ` (none lists ${inlineCode(file)})` : file ? ` (the context does not list the files they touched, so I can't tell which one changed ${inlineCode(file)})` : ''}:`);
      // With the files each lists (the changelog's), so the reader sees what the change touched instead.
      for (const c of changes.slice(0, 3)) {
        const touched = pathsOf(c);
        out.line(`- ${describeChange(c)}${touched.length > 0 ? `; it touched ${touched.slice(0, 4).map((p) => inlineCode(p)).join(', ')}${touched.length > 4 ? ` and ${touched.length - 4} more` : ''}` : ''}`);
      }
      if (changes.length > 3) out.line(`- …and ${changes.length - 3} more.`);
    }
    for (const { c, hit, why } of touchedClue.slice(0, 2)) out.line(`- ${describeChange(c)} changed ${inlineCode(hit)}, ${why}.`);
  }

  // The checkout's change read with git (changeDiff.ts): the changed lines of what the error names, with the commit.
  const located = relFile ? { path: relFile, line: loc?.line } : undefined;
  // A path the failing command names that the error says is not there (the finding's `refused`), which the change moved away (fx18).
  const moved = movedAwayOperand(ci, f);
  // The URLs and paths the error's lines quote (fx20): the command's line and what it printed, and R's warnings below.
  const logSpan = storedLogSpan(ctx);
  const failing = logSpan ? failingStepOf(logSpan, f.message_line).command : undefined;
  const ownLast = Math.max(f.message_line, ...f.evidence.filter((n) => n <= f.message_line + 8));
  const fromCommand = failing && failing.line < f.message_line ? Math.min(30, f.message_line - failing.line) : 0;
  const quoted = logSpan ? quotedOperands(around(logSpan, f.message_line, fromCommand, 8), { first: f.message_line, last: ownLast }) : undefined;
  // The changed script a timed-out step was running, and its last output (fx20).
  const stopped = logSpan ? stoppedScript(ci, f, failing, around(logSpan, f.message_line, fromCommand, 0)) : undefined;
  // A value the change set that the failing command read: the trace above the command, up to 200 lines (fx21).
  const errorSource = scriptAndErrorLine(ci, located).errorLine;
  const value = logSpan ? valueRead(ci, f, failing, around(logSpan, failing?.line ?? f.message_line, 200, f.message_line - (failing?.line ?? f.message_line)), errorSource && located?.line !== undefined ? { text: errorSource, place: `${located.path}:${located.line}` } : undefined) : undefined;
  const changePlaces: Parameters<typeof changeDiffStep>[2] = {
    located,
    moved,
    quoted,
    stopped,
    value,
    ...scriptAndErrorLine(ci, located),
    named: [
      ...(subjectOf ? [{ path: subjectOf.path, why: 'the code under test' }] : []),
      ...[loc?.frames?.project, loc?.frames?.raise].flatMap((x) => (x ? [{ path: checkoutPathOf(ctx, x.file), why: 'on the stack of the error' }] : [])),
      ...(testFrame ? [{ path: testFrame.file, why: "the test's own file" }] : []),
      ...(programSource ? [{ path: programSource.path, why: "the crashed program's source" }] : []),
      // Every source the log's build line names for the program that failed, not only the one shown (fx16).
      ...(programBuild(f, storedLogSpan(ctx))?.sources ?? []).map((x) => ({ path: checkoutPathOf(ctx, x.file), why: 'a source of the program that failed, as its build line names it' })),
      ...cluePaths.map((p) => ({ path: p, why: 'a file named above' })),
    ],
    // The check is the test's own place: its frame on the stack, else the finding's place only where that is the
    // failed assertion or a test file's line; a test-error's raise site in the code under test is no check (fx18).
    check: testFrame ? `${testFrame.file}:${testFrame.line}` : relFile && loc?.line !== undefined && (f.class === 'test-assertion' || (f.class === 'test-error' && TEST_FILE.test(relFile))) ? `${relFile}:${loc.line}` : undefined,
  };
  const checkoutChange = changeDiffStep(ci, f, changePlaces);
  if (checkoutChange && testsBefore !== undefined) {
    // The test-order paragraph is a guess the change block can make moot: when the change wrote lines of what the error
    // names (the code under test, a file on the stack), that is the lead, and the guess goes; else it stays, saying so.
    const w = changesOf(ci);
    const linked = moved !== undefined || (w !== undefined && blocksTheErrorNames(w, f, changePlaces).picked.length > 0);
    const kept = remedy.steps.find((x) => x.id === TESTS_BEFORE);
    out.rewrite(testsBefore, linked || !kept ? undefined : `- ${kept.text} The checkout's change below shows no changed line of what the error names, so nothing there explains it instead.`);
  }
  if (checkoutChange) {
    out.fact('workspaceChanges');
    if (moved && checkoutChange.includes(at(moved.commandLine))) out.log({ start_line: moved.commandLine, end_line: moved.commandLine }).log({ start_line: moved.errorLine, end_line: moved.errorEnd });
    for (const n of [...(quoted ?? []).map((q) => q.line), stopped?.command.line, stopped?.last?.line]) if (n !== undefined && checkoutChange.includes(at(n))) out.log({ start_line: n, end_line: n });
    out.line();
    out.line(checkoutChange);
  }
  const notRead = checkoutChange ? undefined : changesNotReadStep(ci);
  if (notRead) {
    out.fact('workspaceChangesNotRead');
    out.line();
    out.line(notRead);
  }

  // The commits' own diff, when the build's environment names the last green commit and this one (and git did not show it above).
  const head = checkoutChange ? undefined : envOf(ci, 'GIT_COMMIT');
  const before = envOf(ci, 'GIT_PREVIOUS_SUCCESSFUL_COMMIT');
  if (head && before && head.value !== before.value && /^[0-9a-f]{7,64}$/i.test(head.value) && /^[0-9a-f]{7,64}$/i.test(before.value)) {
    out.fact(head.field, before.field);
    const paths = [...new Set([...(relFile && !/^(?:\/|[A-Za-z]:[\\/])/.test(relFile) ? [relFile] : []), ...cluePaths])].slice(0, 3);
    out.line();
    out.line(`**What changed since the last green commit:** ${inlineCode(`git diff ${before.value.slice(0, 12)}..${head.value.slice(0, 12)}${paths.length > 0 ? ` -- ${paths.join(' ')}` : ''}`)} (${inlineCode(before.name)} and ${inlineCode(head.name)} of the build's environment).`);
  }

  // What the step set before it (a URL, an empty token, a memory limit): often the thing to change.
  const stored = storedLogSpan(ctx);
  // A program or a test the step ran reads its environment too: its variables (not only limits and flags) are shown for those classes.
  const runs = RUN_CLASSES.has(f.class);
  const echoed = stored && (STEP_CLASSES.has(f.class) || runs) ? stepSettings(stored, f.message_line) : [];
  const settings = runs && !echoed.some((x) => /^(?:export )?[A-Za-z_]\w*=/.test(x.text)) ? [] : echoed;
  if (settings.length > 0) {
    out.line();
    out.line(`**The step's settings before the error** (as the shell and npm echoed them${runs ? '; what it ran inherits its variables' : ''}):`);
    for (const x of settings) {
      out.log({ start_line: x.line, end_line: x.line });
      out.line(`- ${inlineCode(x.text)} ${at(x.line)}${x.empty ? `: ${inlineCode(x.empty)} was empty when the step ran` : ''}`);
    }
  }
  // The script line that ran the failing command, from the workspace.
  const script = !source && STEP_CLASSES.has(f.class) ? scriptOfCommand(ask, settings.flatMap((x) => (x.empty ? [x.empty] : []))) : undefined;
  if (script) {
    out.line();
    out.line(script.text);
    for (const x of script.sources) out.source(x);
  }

  // The script the failing command ran (not traced inside it): its one line that runs the program the error names (`sort: write failed`).
  const inner = !source && STEP_CLASSES.has(f.class) ? snippetsOf(ci).find((x) => INNER_SCRIPT_LINE.test(x.message ?? '') && typeof x.line === 'number') : undefined;
  if (inner && typeof inner.line === 'number') {
    const program = INNER_SCRIPT_LINE.exec(inner.message ?? '')?.[1] ?? '';
    out.line();
    out.line(`**In the script it ran:** ${inlineCode(`${inner.path}:${inner.line}`)} is the line of ${inlineCode(inner.path)} (the script the failing command ran) that runs ${inlineCode(program)}, the program the error names ${at(f.message_line)}:`);
    out.line(numbered(inner, inner.line, 15));
    out.source({ kind: 'file', path: inner.path, start_line: inner.startLine, end_line: inner.endLine });
  }

  // 4. A command that reproduces it locally: the test alone, else the command the CI ran.
  const step = stored ? failingStepOf(stored, f.message_line) : {};
  // A timeout's own `kill`/`sleep` is not what hung: the command before it is.
  let ran: (typeof step)["command"] = step.command;
  for (let guard = 0; stored && ran && f.class === 'timeout-aborted' && TRIVIAL_COMMAND.test(ran.command) && guard < 5; guard++) {
    const earlier = ran.line > 1 ? failingStepOf(stored, ran.line - 1).command : undefined;
    ran = earlier && earlier.line < ran.line ? earlier : undefined;
  }
  if (ran && TRIVIAL_COMMAND.test(ran.command)) ran = undefined;
  // A lost agent or a build a person stopped did not fail on its own: nothing to reproduce.
  const command = f.class === 'agent-lost' || (f.class === 'timeout-aborted' && abortedBy(f.message)) ? undefined : (testFrame && loc ? reproduceCommand({ ...f, location: { ...loc, file: testFrame.file, line: testFrame.line } }, ran?.command, testFrame.file) : reproduceCommand(f, ran?.command, relFile));
  if (command) {
    out.line();
    const same = ran && command === ran.command ? ran : undefined;
    const doc = docTestOf(f);
    const from = same ? ` (the command the build ran ${at(same.line)})` : doc && f.test ? ` (runs the doc tests${doc.item ? ` of items named like ${inlineCode(doc.item)}` : ''}, ${inlineCode(f.test.name)} ${at(f.test.log_line)} among them)` : f.test ? ` (runs ${inlineCode(f.test.name)} ${at(f.test.log_line)} alone)` : '';
    if (same) out.log({ start_line: same.line, end_line: same.line });
    else if (f.test) out.log({ start_line: f.test.log_line, end_line: f.test.log_line });
    // A command of hundreds of arguments (a `find` expanded into javac's list) is shown by its start: the cited line has it whole.
    const long = command.length > 400 && same !== undefined;
    const shown = long ? `${command.slice(0, Math.max(command.lastIndexOf(' ', 200), 20))} …` : command;
    out.line(`**Reproduce it locally:** ${inlineCode(shown)}${long ? ` (the command the build ran ${at(same.line)}, ${command.split(/\s+/).length} words: its start here, the cited line holds it whole)` : from}${/^ctest /.test(command) ? ', from the build directory (after building it)' : ", from the project's directory"}.`);
  }

  // A CI script's failure or an unexplained one: the command that failed and the code it ended with.
  // (A command that printed nothing: the remedy above said both, ux15.)
  if ((f.class === 'ci-script' || f.class === 'unknown') && step.exitCode && step.command && step.command.line < step.exitCode.line && !silentStopOf(f, lineText)) {
    const gloss = exitCodeMeaning(step.exitCode.code);
    out.log({ start_line: step.command.line, end_line: step.command.line }).log({ start_line: step.exitCode.line, end_line: step.exitCode.line });
    out.line();
    out.line(`The failing command was ${inlineCode(clip(step.command.command, 160))} ${at(step.command.line)}; the step ended with exit code ${step.exitCode.code}${gloss ? ` (${gloss})` : ''} ${at(step.exitCode.line)}.`);
  }

  // 5. Where the log does not settle it, say so.
  // A class held at medium keeps its hedge beside an OS condition's two sides (osCondition.ts): both are true.
  const hedged = f.confidence === 'medium' && f.class !== 'unknown' && (!remedy.unsure || osConditionOf(f.message) !== undefined);
  if (remedy.unsure) {
    out.line();
    out.line(remedy.unsure.text);
  }
  if (hedged) {
    out.line();
    out.line(classHedge(f) as string);
  } else if (!remedy.unsure && f.confidence === 'low') {
    out.line();
    out.line(`I can't tell which fix is right: the log shows ${inlineCode(clip(f.message, 120))} ${citeMessage(f, lineText)} but not its cause.`);
  }
  if (f.location && !source && f.location.line === undefined && f.class !== 'link-error') {
    out.line();
    out.line(`${capitalise(inlineCode(placeOf(f.location)))} is the file the log names.`);
  }
  return out.reply();
};

export const fixAnswers: AnswerGroup = { name: 'fix', composers: { fix } };

/** Share of the words (3+ letters, citations left out) of `a` that `b` holds too. */
function wordsCovered(a: string, b: string): number {
  const words = (t: string): Set<string> => new Set(t.replace(/\[L\d+-L\d+\]/g, ' ').toLowerCase().match(/[a-z_$][\w$./-]{2,}/g) ?? []);
  const of = words(a);
  const inB = words(b);
  let n = 0;
  for (const w of of) if (inB.has(w)) n++;
  return of.size === 0 ? 0 : n / of.size;
}

/**
 * The source block without its `**Fix:**` line when a remedy step above already says it (half of
 * either's words in the other): the step stays, cited, and the marked line below shows where (ux4,
 * `set -u`: "set RELEASE_CHANNEL in the job's environment ..." twice).
 */
function withoutRepeatedFix(text: string, steps: readonly string[]): string {
  const lines = text.split('\n');
  const fix = lines.find((l) => l.startsWith('**Fix:**'));
  if (fix === undefined) return text;
  const said = fix.slice('**Fix:**'.length);
  return steps.some((step) => wordsCovered(step, said) >= 0.5 && wordsCovered(said, step) >= 0.5) ? lines.filter((l) => l !== fix).join('\n') : text;
}

