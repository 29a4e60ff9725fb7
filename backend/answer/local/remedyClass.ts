import { sshStep, sshTransportOf, type SshTransport } from './sshTransport.js';
import type { Finding, HttpStatus } from '../../../protocol/types.js';
import { osKindWords } from '../../../core/finding/errno.js';
import { MAKEFILE } from '../../../core/makefile.js';
import { noAgentLabel } from '../../../core/finding/noAgent.js';
import { addressPorts } from '../../../core/log/values.js';
import { cite, clip, failingStepOf, inlineCode, UNSET_VARIABLE } from '../logtext.js';
import { abortedBy, at, capital, citedAfter, docTestOf, inProjectFile, lineHolding, messageSpan, placeOf, printedCode, toolName, XPASS_STRICT } from './findingText.js';
import { MODULE_FORMAT, PACKAGE_SUBPATH, PHP_NOT_LOADED, allocationHint, indentationHint, isLoadFailure, messageHasDetail, missingFields, testTimeLimitOf, waitsOf } from './exceptions.js';
import { lintFixCommand, systemPackageHint } from './fixCommands.js';
import { dependencySteps } from './dependencySteps.js';
import { likelyStep } from './likely.js';
import { goLocalModule, goLocalModuleStep } from './goLocalModule.js';
import { rErrorSteps, tclProcedureStep } from './rScript.js';
import { osAct, osConditionOf, osUnsure, stepUserIn, systemDir } from './osCondition.js';
import { READ_ONLY_MOUNT } from './osWords.js';
import { IMPORT_CYCLE } from './importCycle.js';
import { devFullAbove, packageIndexAbove, portInMessage } from './remedyWhere.js';
import { requiredEsm } from './runtimeWords.js';
import { EXCEPTION_PLACE, HEAP_GENERAL, MISSING_TOOL_GENERAL, SHELL_SCRIPT_GENERAL, type RemedyInput, type RemedyRule, type RemedyStep, type Unsure } from './remedyShape.js';
import { escapeRegExp } from '../facts.js';
import { loadAct, loadSteps } from './loadRemedy.js';
import { exitWords, silentStopOf, silentStopStep } from './silentStop.js';
import { tlsRefusalFor } from './tlsRefusal.js';
import { answeredWords, httpStatusOf, isNoSuchFile } from './httpStatus.js';
import { isJvmLinkage, jvmMissingClassAct, jvmMissingClassSteps, jvmResolveAct, jvmResolveName } from './jvmResolve.js';


/** A shell or a runtime refused to run a file (`bash: ./x.sh: Permission denied`, `spawn ./x EACCES`): its path. */
const EXEC_REFUSED = /\bspawn (\S+) EACCES\b|(?:^|: )(\.{0,2}\/[\w./-]+|[\w.-]+\.(?:sh|py|pl|rb)): Permission denied\s*$/;
/**
 * The file system refused a path (not a credential): its owner or mode, or who the step runs as. The OS table's
 * permission words (core/finding/errno.ts) and a read-only mount's (EROFS: not SQLite's read-only database, whose file
 * the database reports), with the refusals tools word their own way.
 */
const PATH_REFUSED = new RegExp(`${osKindWords('permission').source}|${READ_ONLY_MOUNT.source}|cannot create directory|root-owned files|administrative privileges`, 'i');
/** A credential refused by a server: an HTTP status, a login, a key. */
const CREDENTIAL_REFUSED = /\b40[13]\b|Unauthori[sz]ed|Forbidden|authenticat|credential|\btoken\b|password|publickey|git@|remote:|access denied for user|login/i;

/**
 * The general step for a refusal, by what refused it: running a file (its executable bit), a path
 * of the file system (its owner and mode, the step's user), or a credential (present, valid,
 * allowed). A tool's own wording replaces it (remedyShape.ts, rule 5).
 */
function refusalStep(f: Finding, m: string): RemedyStep {
  const general = (text: string): RemedyStep => ({ text, lines: [], yieldsToWording: true });
  const exec = EXEC_REFUSED.exec(f.message);
  if (exec && !CREDENTIAL_REFUSED.test(f.message)) {
    const file = (exec[1] ?? exec[2]) as string;
    return general(`${inlineCode(file)} could not be run ${m}: make it executable in git (${inlineCode(`git update-index --chmod=+x ${file.replace(/^\.\//, '')}`)}) or call it through its interpreter.`);
  }
  if (PATH_REFUSED.test(f.message) && !CREDENTIAL_REFUSED.test(f.message)) {
    // The path the refusal is about: the one the message puts right before it (`open /x: permission
    // denied`), else after it (`AccessDeniedException: /x`, `cannot create directory: /x`), else the first.
    const abs = String.raw`(\/[\w.@+-]+(?:\/[\w.@+-]+)*)`;
    const path = (
      new RegExp(`${abs}['"\`]?:? (?:permission denied|EACCES|EPERM|Operation not permitted|Read-only file system)`, 'i').exec(f.message)?.[1] ??
      new RegExp(`(?:AccessDeniedException|cannot create directory|permission denied|EACCES|EPERM)[^/]*?${abs}`, 'i').exec(f.message)?.[1] ??
      new RegExp(`(?:^|[\\s'"\`(])${abs}`).exec(f.message)?.[1]
    )?.replace(/[.,:;]+$/, '');
    const dir = path ? path.slice(0, path.lastIndexOf('/')) || '/' : undefined;
    // The kernel's read-only mount (EROFS): no owner, mode or user changes it.
    if (osConditionOf(f.message)?.mount) {
      return general(`${path ? inlineCode(path) : 'The path the step wrote'} is on a file system mounted read-only ${m}: no owner or mode changes that. Have the step write on a writable mount (the workspace, a temporary directory), or make that mount writable (a container volume mounted \`:ro\`, a read-only root file system).`);
    }
    return general(
      path
        ? `The user the step runs as may not write or open ${inlineCode(path)} ${m}. Check who owns its directory (${inlineCode(`ls -ld ${dir as string}`)}) and which user the step is (${inlineCode('id')}); then write somewhere the build's user owns (the workspace, a path a variable sets)${systemDir(dir as string) ? `; ${inlineCode(dir as string)} is a system directory, not the build's to own` : ', or give that user access there'}.`
        : `The user the step runs as may not write or open a path the step needs ${m} (the lines around it name it): check that path's owner and mode (\`ls -ld\`) and who the step runs as (\`id\`).`,
    );
  }
  // OpenSSH ignores a private key others may read (`Permissions 0644 for 'k' are too open.`): its mode, not the key, is wrong.
  const openKey = /Permissions (0\d{3}) for '([^']+)' are too open/.exec(f.message);
  if (openKey) {
    const key = openKey[2] as string;
    return general(`ssh ignored the private key ${inlineCode(key)} because its mode ${inlineCode(openKey[1] as string)} lets others read it ${m}: make it the owner's alone (${inlineCode(`chmod 600 ${key}`)}) right after the step writes it, or write it with ${inlineCode('umask 077')}.`);
  }
  // The server's own reason in the answer's body (`401 Unauthorized: {"error":"invalid or missing bearer token"}`): what to check first.
  const reason = /\b40[13]\b[^{]*\{[^}]*"(?:error|message|detail|error_description)"\s*:\s*"([^"]{3,160})"/.exec(f.message)?.[1];
  const said = reason ? ` The server's reason: ${inlineCode(reason)} ${m}${/\bbearer\b/i.test(reason) ? `; it expects the header ${inlineCode('Authorization: Bearer <token>')}, so check the scheme the code sends as well as the token` : ''}.` : '';
  return general(
    f.host
      ? `Check the credentials the step uses for ${inlineCode(f.host)}: present, still valid, and with access ${m}.${said}`
      : `Check the credentials or permissions of what the step accessed (the log names no host): present, still valid, and with access ${m}.${said}`,
  );
}

/** The classes whose first step names the place to act (the file and line, the raise site, the check). */
const PLACE_FIRST = new Set<Finding['class']>(['compile-error', 'lint', 'test-error', 'runtime-exception', 'test-assertion']);

/** The class table as one rule: its first step is `place` where the class has one, the others `class`. */
export const CLASS_REMEDIES: RemedyRule[] = [
  {
    id: 'class',
    specificity: 'class',
    steps(i) {
      return classSteps(i).steps.map((s, n) => {
        const step: RemedyStep = typeof s === 'string' ? { text: s, lines: [] } : s;
        return n === 0 && (PLACE_FIRST.has(i.f.class) || isJvmLinkage(i.f)) ? { ...step, specificity: 'place' } : step;
      });
    },
  },
];

/** What the class says when the log does not settle which fix is right. */
export function classUnsure(i: RemedyInput): Unsure | undefined {
  return classSteps(i).unsure;
}

const SEEN = new WeakMap<RemedyInput, { steps: (string | RemedyStep)[]; unsure?: Unsure }>();
/** The class's steps, worked out once per input (the steps and `classUnsure` both read them). */
function classSteps(i: RemedyInput): { steps: (string | RemedyStep)[]; unsure?: Unsure } {
  let v = SEEN.get(i);
  if (!v) SEEN.set(i, (v = stepsOfClass(i)));
  return v;
}

/**
 * What a finding's class and details call for: general CI knowledge, each step tied to the
 * finding (the class table of the remedies, remedyShape.ts). A class's first step names the
 * place to act where the class has one (a compiler's or linter's line, a raise site, a failed
 * check); the rest is general (specificity `class`).
 */
function stepsOfClass(i: RemedyInput): { steps: (string | RemedyStep)[]; unsure?: Unsure } {
  const { f, lineText, m } = i;
  // The message where the tool printed it (over all its lines); `near` also covers the lines that
  // print the details a step quotes next to its citation (javac's `symbol:`, rspec's `got:`, the host).
  const said = messageSpan(f, lineText);
  const near = (...values: (string | undefined)[]): string => {
    const lines = values.filter((v): v is string => v !== undefined && v !== '').map((v) => lineHolding(f, v, lineText));
    const wrapped = f.evidence.filter((n) => n > said.end_line && n <= said.end_line + 3);
    return cite({ start_line: Math.min(said.start_line, ...lines), end_line: Math.max(said.end_line, ...lines, ...(lineText ? wrapped : [])) });
  };
  const steps: (string | RemedyStep)[] = [];
  const loc = f.location;
  const place = loc?.line !== undefined ? inlineCode(placeOf(loc)) : loc?.file ? inlineCode(loc.file) : undefined;
  let unsure: Unsure | undefined;
  const project = loc?.frames?.project;
  switch (f.class) {
    case 'compile-error': {
      // Without a place (an import cycle, a project-level error) there is no line to go to: say so.
      const opening = loc?.line !== undefined ? `open ${inlineCode(loc.file)} at line ${loc.line}${loc.column !== undefined ? `, column ${loc.column}` : ''} and change it so that it compiles` : place ? `open ${place} and change it so that it compiles` : 'the log names no file or line for it, so start from what the compiler names in its message';
      steps.push(`${opening}: the compiler says ${inlineCode(clip(diagnosticText(f), 200))}${printedCode(f, lineText) && !diagnosticText(f).includes(f.code as string) ? ` (${inlineCode(f.code as string)})` : ''}${f.symbol && !diagnosticText(f).includes(f.symbol) ? ` about ${inlineCode(f.symbol)}` : ''} ${near(f.symbol, f.code)}.`);
      const shape = missingFields(f.message) ?? indentationHint(f.message);
      if (shape) steps.push(citedAfter(shape, m));
      if (f.code && f.tool === 'rustc') steps.push(`\`rustc --explain ${f.code}\` explains ${inlineCode(f.code)} with examples.`);
      const nullable = /inferred type is ([\w.<>]+)\? but \1 was expected|Type '([\w.<>]+) \| (?:null|undefined)' is not assignable to type '\2'/.exec(f.message);
      if (nullable) steps.push(`The value there can be null (${inlineCode(`${nullable[1] ?? nullable[2]}?`)}) where a non-null ${inlineCode((nullable[1] ?? nullable[2]) as string)} is required ${m}: handle the null case (a null check, a default or an error with \`?:\`/\`??\`), or declare the type as nullable if null is a valid value.`);
      const suggested = /Did you mean '([\w$]+)'\?/i.exec(f.message)?.[1];
      if (suggested && f.symbol) steps.push(`The compiler suggests ${inlineCode(suggested)} instead of ${inlineCode(f.symbol)} ${m}.`);
      break;
    }
    case 'link-error':
      // The JVM refusing to link loaded code against the class it found (jvmResolve.ts): the raising line is where it
      // showed, the classpath's builds are what to change; the exception's own step (exceptions.ts) says how.
      if (f.linkage?.stage === 'resolve' || f.linkage?.stage === 'missing-class') {
        const missing = f.linkage.stage === 'missing-class';
        const target = project ?? loc?.frames?.raise;
        const ex = inlineCode(missing ? 'NoClassDefFoundError' : jvmResolveName(f));
        const act = missing ? jvmMissingClassAct(f, m) : jvmResolveAct(m);
        steps.push({
          id: EXCEPTION_PLACE,
          lines: [],
          text: target
            ? `Open ${inlineCode(placeOf({ file: target.file, line: target.line }))}${target.function ? ` (in ${inlineCode(target.function)})` : ''} ${at(target.log_line)}, where ${ex} was raised${act}.`
            : place
              ? `Open ${place}, where the log places ${ex}${act}.`
              : missing ? `The log names no line that raised ${ex} ${m}: the fix is in the classpath the program runs with.` : `The log names no line that raised ${ex} ${m}: the fix is in which builds of the calling code and of the class it uses are on the classpath.`,
        });
        if (missing) steps.push(...jvmMissingClassSteps(f, lineText));
        break;
      }
      // A shared object the loader refused after the build (core/finding/linkage.ts): not the link line's to fix alone.
      if (f.linkage?.stage === 'load') {
        steps.push(...loadSteps(f, i.stored, m));
        break;
      }
      if (DUPLICATE_SYMBOL.test(f.message)) {
        const sym = DUPLICATE_SYMBOL.exec(f.message)?.[1] as string;
        steps.push(`${inlineCode(sym)} is defined in more than one object file of the link ${m} (the linker names the first definition). A variable or function defined in a header is defined again in every file that includes it: declare it in the header (${inlineCode(`extern <type> ${sym};`)} for a variable, a prototype for a function) and define it in one source file; or make each copy \`static\` if each file should have its own; or drop the second source file from the link if it was added twice.`);
        break;
      }
      // Code not built position-independent, linked into a shared object or a PIE: no symbol is missing.
      if (/recompile with -fPIC/.test(f.message)) {
        const obj = /:\s*(?:(\S+?\.a)\((\S+?\.o)\)|(\S+?\.o)):.*?relocation/.exec(f.message);
        const what = obj ? (obj[2] ? `${inlineCode(obj[2])} (in ${inlineCode(obj[1] as string)})` : inlineCode(obj[3] as string)) : 'an object of the link';
        // make's own line under the error names the Makefile whose rule ran the link.
        let mk: { file: string; line: number } | undefined;
        for (let n = f.message_line + 1; lineText && n <= f.message_line + 6 && !mk; n++) {
          const file = /make(?:\[\d+\])?: \*\*\* \[(\S*[Mm]akefile):\d+/.exec(lineText(n) ?? '')?.[1];
          if (file) mk = { file, line: n };
        }
        steps.push(`${capital(what)} was compiled without position-independent code, and the link puts it into a shared object (or a PIE) ${m}: compile it with \`-fPIC\` (in the flags of the rule that builds it${mk ? ` in ${inlineCode(mk.file)} ${at(mk.line)}` : ''}, e.g. \`CFLAGS += -fPIC\`; CMake: \`set(CMAKE_POSITION_INDEPENDENT_CODE ON)\`), then rebuild it from clean so ${obj?.[1] ? 'the archive holds' : 'the link gets'} the new object (\`make clean\`).`);
        break;
      }
      // GNU ld's `relocation truncated to fit: R_X86_64_PC32 against symbol `x' defined in .bss section`: nothing is missing,
      // the data is out of the code's reach (the small code model addresses 2 GiB).
      if (/relocation truncated to fit: /.test(f.message) && !/recompile with -fPIC/.test(f.message)) {
        const far = /against (?:symbol )?[`'‘]([^'’`]+)['’`] defined in (\S+) section/.exec(f.message);
        steps.push(`No symbol is missing: ${far ? `${inlineCode(far[1] as string)} (in the ${inlineCode(far[2] as string)} section)` : 'the data the code refers to'} lies beyond what the code's relative addressing can reach ${m} (the default small code model reaches 2 GiB): make the large static data smaller, or allocate it at run time (\`malloc\`, a \`std::vector\`) instead of a static array; or compile and link every object with \`-mcmodel=medium\`.`);
        break;
      }
      if (f.symbol?.startsWith('-l')) {
        const lib = f.symbol.slice(2).replace(/[:,.]+$/, '');
        steps.push(`Make the library ${inlineCode(lib)} available to the linker on the agent (install its development package, or point the build at it with \`-L\` / the build script's link search path), or remove ${inlineCode(`-l${lib}`)} from the link line if the code no longer needs it ${m}.`);
        if (systemPackageHint(f)) steps.push(systemPackageHint(f) as string);
      } else {
        // A library's symbol (libm's sqrt) or a vtable is not renamed code: the wording's step replaces this one.
        steps.push({ lines: [], yieldsToWording: true, text: `Find where ${f.symbol ? inlineCode(f.symbol) : 'the missing symbol'} is defined and make sure that file or library is part of the link: the source file listed in the build (Makefile, \`CMakeLists.txt\` \`add_executable\`/\`add_library\`/\`target_sources\`), or the library on the link line; if it was renamed or removed, update the callers ${m}.` });
      }
      break;
    case 'test-assertion':
      if (XPASS_STRICT.test(f.message)) {
        // pytest's strict xfail: the test was expected to fail and passed; nothing compared unequal.
        const id = f.test?.name;
        const file = id?.includes('::') ? id.slice(0, id.indexOf('::')) : undefined;
        const name = id ? (id.split('::').pop() as string) : undefined;
        steps.push(`${name ? `The test ${inlineCode(name)}` : 'The test'} is marked \`@pytest.mark.xfail\` (strict, or \`xfail_strict = true\` in the pytest config) and it passed ${m}: pytest fails a strict expected failure that passes. If the code now does what the test checks (the bug its reason names was fixed), remove the \`xfail\` marker${name ? ` from ${inlineCode(name)}` : ''}${file ? ` in ${inlineCode(file)}` : ''}; if the code should still fail it, the test no longer shows the bug and needs changing.`);
        break;
      }
      {
        // A limit of time the test's own check sets ("batch not posted within 25ms", ux7): not a value that differs.
        const limit = testTimeLimitOf(f.message);
        if (limit) {
          steps.push(`The check that failed is a time limit the test sets itself ${m}: what it waited for had not happened within ${inlineCode(limit)}${place ? ` (the check is at ${place})` : ''}. Either the code under test became slower than that, or the limit is tighter than the work takes on this agent; then the test passes or fails with the machine's load (a flaky test). Time what the test waits for, and run the test several times, before changing the code or the limit.`);
          unsure = { text: `I can't tell from one build's log whether the code became slower or the limit of ${inlineCode(limit)} is too tight for the agent: runs of the same commit that pass and fail would show the second.`, sides: false };
          break;
        }
      }
      if (f.expected !== undefined && f.actual !== undefined) steps.push(`The test expects ${inlineCode(f.expected)} and the code gave ${inlineCode(f.actual)} ${near(f.expected, f.actual)}.`);
      steps.push(`Look at the code under test${project ? ` (called from ${inlineCode(placeOf(project))})` : place ? ` (the check is at ${place})` : ''} to see why it gives a different value.`);
      unsure = {
        text:
          f.expected !== undefined && f.actual !== undefined
            ? `I can't tell which side is wrong from the log: if ${inlineCode(clip(f.expected, 80))} is the intended result, fix the code under test so it gives that; if ${inlineCode(clip(f.actual, 80))} is now right (the behaviour changed on purpose), update the test's expected value to it.`
            : `I can't tell which side is wrong from the log: if the test states the intended behaviour, fix the code under test; if the behaviour changed on purpose, update the test's expected value.`,
        sides: true,
      };
      break;
    case 'test-error':
    case 'runtime-exception': {
      const target = project ?? loc?.frames?.raise;
      const ex = f.exception && f.exception !== 'error' ? inlineCode(f.exception) : f.class === 'runtime-exception' ? 'the error' : 'the exception';
      // Where to act, not the diagnosis again (the headline quotes the message): the raising line, else the log has none.
      // What to do at the line: a class or module that did not load is not about the line's values,
      // and a message that is the type alone describes nothing of them.
      // An OS condition (a path refused, no space, no such file, a connection refused): the line only asked (osCondition.ts).
      const os = osConditionOf(f.message);
      if (os) unsure = osUnsure(os, stepUserIn(i.stored, f.message_line)?.user);
      const cycleOf = IMPORT_CYCLE.exec(f.message)?.[1];
      const act = cycleOf
        ? `: that import ran while ${inlineCode(cycleOf)} was still loading ${m}, so the fix is in how the project's modules import each other, not in what the build installs`
        : MODULE_FORMAT.test(f.message)
        ? `: that line loads a module in a way its format does not allow ${m}, so the fix is in how the line loads it${requiredEsm(f, i.lineText)?.package === undefined && requiredEsm(f, i.lineText) ? '' : ' (or which version of the package the build installs)'}, not in the values it works with`
        : f.linkage?.stage === 'load'
        ? loadAct(f, m)
        : isLoadFailure(`${f.exception ?? ''} ${f.message}`)
        ? `: that line is where the program first needed code it could not load ${m}, so the fix is in what the build puts on the classpath or installs, not in the line`
        : PACKAGE_SUBPATH.test(f.message)
        ? `: that line imports a subpath that the package's \`exports\` map does not list ${m}, so the fix is in how the line imports it (or in that map), not in the values it works with`
        : PHP_NOT_LOADED.test(f.message)
        ? `: that line is where the program first needed ${inlineCode(PHP_NOT_LOADED.exec(f.message)?.[1] as string)}, which no file it loaded declares ${m}, so the fix is in the file that should declare it and how it is loaded, not in the values the line works with`
        : os
          ? osAct(os, m)
          : messageHasDetail(f)
          ? `, and change what that line does with the values it gets, as the message ${m} describes`
          : `, and read what that line does: the message ${m} gives nothing beyond the exception's type`;
      // A doc test's panic: its line is one of the program rustdoc built from the example, not of the file (ux9).
      const doc = docTestOf(f);
      // R's error names calls, not lines (rScript.ts).
      const r = !target && !place ? rErrorSteps(f, i.lineText, i.stored ? failingStepOf(i.stored, f.message_line).command?.command : undefined) : undefined;
      if (r && r.length > 0) {
        steps.push({ id: EXCEPTION_PLACE, lines: [], text: r[0] as string }, ...r.slice(1));
        break;
      }
      steps.push({
        id: EXCEPTION_PLACE,
        lines: [],
        text: doc && f.test
          ? `Read the doc example that starts at line ${doc.line} of ${inlineCode(doc.file)} (the doc test ${inlineCode(f.test.name)} ${at(f.test.log_line)}) against what the code it calls does now: the example panicked ${m}. Either the code changed what the example relies on (fix the code), or the example no longer shows how to use it (fix the example).`
          : target
          ? `Open ${inlineCode(placeOf({ file: target.file, line: target.line }))}${target.function ? ` (in ${inlineCode(target.function)})` : ''} ${at(target.log_line)}, where ${ex} was raised${target === project && loc?.frames?.raise && (loc.frames.raise.file !== project.file || loc.frames.raise.line !== project.line) ? ' (the deepest frame in the project\'s own code)' : ''}${act}.`
          : place
            ? `Open ${place}, where the log places ${ex}${act}.`
            : (tclProcedureStep(f, i.lineText, m) ?? `The log names no line that raised ${ex}; its message ${m} is all it printed: run it again locally with a stack trace (the command below) to find that line.`),
      });
      if (f.linkage?.stage === 'load') steps.push(...loadSteps(f, i.stored, m));
      if (f.class === 'test-error') {
        // pytest's `ERROR at teardown of x` heading above the message: the body ran, the cleanup failed.
        let teardown: number | undefined;
        let setup: number | undefined;
        for (let n = f.message_line; lineText && n >= Math.max(1, f.message_line - 80) && teardown === undefined && setup === undefined; n--) {
          const t = lineText(n) ?? '';
          if (/_{3,} ERROR at teardown of /.test(t)) teardown = n;
          else if (/_{3,} ERROR at setup of /.test(t)) setup = n;
          else if (/_{3,} \S/.test(t)) break;
        }
        steps.push(
          teardown !== undefined
            ? `The error came in the test's teardown ${at(teardown)}, after its body ran: pytest reports it as an error whether or not the test's checks held. Fix the fixture's cleanup (the code after its \`yield\`, or its finalizer) so it copes with what the test left.`
            : setup !== undefined
            ? `The error came in the test's setup ${at(setup)}, before its body ran: fix the fixture that raised it (the code under that heading), not the test's checks.`
            : 'The test did not get as far as checking a result, so fix the code (or the test\'s setup) before looking at what it checks.',
        );
      }
      break;
    }
    case 'dependency-resolution':
      // A download's 404 or 410 for an artifact's URL (core/finding/httpStatus.ts, fx21): the URL is what to check.
      if (f.http_status && isNoSuchFile(f.http_status)) {
        steps.push(noSuchFileStep(f, f.http_status, at));
        break;
      }
      if (goLocalModule(f) !== undefined) {
        steps.push(goLocalModuleStep(goLocalModule(f) as string, at(f.message_line)));
        break;
      }
      steps.push(...dependencySteps(f, lineText));
      if (systemPackageHint(f)) steps.push(systemPackageHint(f) as string);
      break;
    case 'network': {
      // A refused certificate: the host answered, nothing transient to re-run; its own step is the wording's (fixKnown.ts, ux15).
      if (tlsRefusalFor(f, lineText)) break;
      // The server answered that it has no file at the URL (fx20): the URL is what to correct; a re-run gets the same answer.
      const status = httpStatusOf(f);
      if (status && isNoSuchFile(status)) {
        steps.push(noSuchFileStep(f, status, at));
        break;
      }
      // OpenSSH's line over git's catch-all (sshTransport.ts, ux18): the port and what answered (or did not) on it.
      if (sshTransportOf(f, lineText)) {
        steps.push(sshStep(sshTransportOf(f, lineText) as SshTransport, m));
        steps.push('If it answers now, the outage was transient: re-run the build.');
        break;
      }
      // The host the finding names, else an address in the message itself (`connect ECONNREFUSED 127.0.0.1:6432`);
      // with neither, no placeholder: the step's own settings (listed below when echoed) name it.
      // Not a source position (`/usr/lib/ruby/3.1.0/socket.rb:1214:in ...` ahead of `127.0.0.1:41122`).
      const inMessage = addressPorts(f.message, { names: true })[0];
      const named = f.host ?? inMessage?.host;
      const host = named ?? 'HOST';
      const port = portInMessage(f.message, named);
      const where = named ? inlineCode(port ? `${named}:${port}` : named) : 'the host and port the step used (the log does not name them here)';
      const mn = near(named, port ? `${named}:${port}` : undefined);
      const loopback = named !== undefined && /^(?:127(?:\.\d{1,3}){3}|localhost|\[?::1\]?|0\.0\.0\.0)$/i.test(named);
      if (loopback && /refused|Couldn't connect to server|Failed to connect|ECONNREFUSED/i.test(f.message)) {
        // The agent itself: no registry, mirror or outage elsewhere; a service of the build's own (or the agent's) is not listening there.
        // A message without the port (pip's `[Errno 111] Connection refused`): the one port the lines just above give the host (ux4).
        const above = port ? undefined : portAbove(i, named as string);
        const used = above ? ` The step used ${inlineCode(`${named as string}:${above.port}`)} ${cite({ start_line: above.line, end_line: above.line })}.` : '';
        const probe = port ?? above?.port;
        const index = packageIndexAbove(i.lineText, i.m0, named as string, probe);
        if (index) {
          // The refused host is the index the tool installs from (pip's `--index-url`): nothing to wait for in the job, an index to start or a setting to change.
          const set = index.setAt !== undefined && index.setAt !== index.line ? ` (set by the command ${at(index.setAt)})` : '';
          steps.push(`Nothing listened on ${inlineCode(probe ? `${named as string}:${probe}` : (named as string))} on the agent itself ${mn}: that is ${index.what}, ${inlineCode(index.url)} ${at(index.line)}${set}, and no index was running there when the step connected. Start that index (the mirror or proxy meant to serve it) before the step, or point the step at one that runs (${index.settings}); ${inlineCode(probe ? `nc -vz ${host} ${probe}` : `nc -vz ${host} PORT`)} on the agent shows whether it listens.`);
        } else steps.push(`Nothing listened on ${where} on the agent itself ${mn}: a service the build starts (or expects on the agent) was not listening on that port when the step connected.${used} Compare the port the step connects to with the port the service listens on (the script's or config's setting), and if the service starts in the same job, wait until it is listening before the step runs (${inlineCode(probe ? `nc -vz ${host} ${probe}` : `nc -vz ${host} PORT`)} on the agent shows whether it is).`);
      } else if (/refused|Couldn't connect to server|Failed to connect|ECONNREFUSED/i.test(f.message)) {
        steps.push(`Nothing accepted the connection on ${where} ${mn}: check that the service the step calls is running and listening there (${named ? inlineCode(port ? `nc -vz ${host} ${port}` : `curl -sSI ${host}`) : `${inlineCode('nc -vz HOST PORT')} with the step's host and port`} from the agent), and that the address and port the build uses are the right ones (the script's variable, the tool's setting: \`.npmrc\` registry, \`pip.conf\` index, \`settings.xml\` mirror).`);
      } else if (goLocalModule(f) !== undefined) {
        // A module of the repository's own (`@v0.0.0`): no host to reach, a directory go did not find.
        steps.push(goLocalModuleStep(goLocalModule(f) as string, at(f.message_line)));
        break;
      } else if (/resolve|name resolution|Name or service not known|ENOTFOUND|EAI_AGAIN|no such host|UnknownHost|nodename nor servname/i.test(f.message)) {
        steps.push(`The agent could not look up ${where} ${mn}: check the name (a typo, an internal host the agent's DNS does not know: ${inlineCode(`nslookup ${host}`)} from the agent), or point the tool at a mirror it can reach (\`settings.xml\`, \`pip.conf\` / \`--index-url\`, \`.npmrc\`, \`http_proxy\`).`);
      } else {
        steps.push(`From the agent, check that ${where} answers (${inlineCode(`curl -sSI https://${host}`)}), and the proxy or mirror settings the tool uses (\`settings.xml\`, \`pip.conf\`, \`.npmrc\`, \`http_proxy\`) ${at(f.evidence.find((n) => n !== f.message_line) ?? f.message_line)}.`);
      }
      if (f.dependency) steps.push(`${capital(toolName(f))} needed ${inlineCode(f.dependency)} from it ${at(f.evidence.find((n) => n !== f.message_line) ?? f.message_line)}: once the host answers (or the mirror has it), the install can go through.`);
      if (!loopback) steps.push('If it answers now, the outage was transient: re-run the build.');
      break;
    }
    case 'disk-full': {
      const target = /(?:write|writing|open|create|copy|cannot \w+)\s+['"`]?([\w./~-]+)['"`]?[:,]?\s*(?:No space left|ENOSPC)|ENOSPC[^'"`]*['"`]([^'"`]+)['"`]|([\w./~-]+\/[\w.-]+): No space left/i.exec(f.message);
      const path = target ? (target[1] ?? target[2] ?? target[3]) : undefined;
      const device = devFullAbove(i.f, i.lineText);
      if (device) {
        // `/dev/full` fails every write with ENOSPC: the disk is not the cause, the target is.
        const by = device.variable ? `, which ${inlineCode(device.variable.name)} names ${at(device.variable.line)}` : '';
        steps.push(`The step wrote to ${inlineCode('/dev/full')} ${at(device.line)}${by}: a device on which every write fails with "No space left on device" ${m}, whatever the free space, so the disk is not full. Point the output at a real file${device.variable ? ` (set ${inlineCode(device.variable.name)} to a path in the workspace)` : ''} and re-run.`);
        break;
      }
      if (path) steps.push(`The write that failed was to ${inlineCode(path)} ${m}: the filesystem that holds it is full, with no space left (\`df -h ${path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '.'}\` on the agent shows it).`);
      steps.push(`Free space on the agent that ran the build (\`df -h\`; old workspaces, build caches, \`docker system prune\`) and re-run ${m}.`);
      break;
    }
    case 'out-of-memory':
      if (/^MemoryError/.test(f.message) || f.exception === 'MemoryError') {
        steps.push(`Python could not allocate more memory ${m}${project ? ` at ${inlineCode(placeOf({ file: project.file, line: project.line }))} ${at(project.log_line)}` : ''}: make that code hold less at once (iterate instead of building whole lists), or give the step more memory (a larger agent, a higher \`ulimit -v\` or container limit).`);
        break;
      }
      if (allocationHint(f, m)) steps.push(allocationHint(f, m) as string);
      // Metaspace is class metadata, not heap: the diagnostic table's Metaspace step supersedes this one (no -Xmx).
      steps.push({ lines: [], id: HEAP_GENERAL, text: f.exception === 'OutOfMemoryError' ? `Give the JVM more heap (\`-Xmx\` in \`MAVEN_OPTS\`, \`org.gradle.jvmargs\`, the test JVM's \`argLine\`) or find what grows: the trace names the allocating code ${m}.` : /heap out of memory/i.test(f.message) ? `Raise Node's heap (\`NODE_OPTIONS=--max-old-space-size=4096\`) or reduce what the step loads ${m}.` : `Give the step more memory (a larger agent or container limit) or reduce what it runs at once (fewer parallel jobs${/\bmake\b/.test(f.tool ?? '') ? ', e.g. `make -j2`' : ''}) ${m}.` });
      break;
    case 'timeout-aborted': {
      const stuck = project ?? loc?.frames?.raise;
      const limit = /(?:timed out after|exceeded (?:the )?(?:timeout of|time ?limit of)?|timeout of|Timeout (?:after|of)|after|timeout:?)\s*(\d+(?:\.\d+)?\s*(?:ms|milliseconds?|s|sec(?:onds?)?|m|min(?:utes?)?|h)\b)/i.exec(f.message)?.[1];
      if (limit) steps.push(`The limit that ran out: ${inlineCode(limit)} ${m}.`);
      if (f.test) {
        // Only a goroutine dump shows where a test was when it was stopped; jest's stack names where the test was declared.
        const where = stuck && f.tool === 'go test' ? `; when it was stopped it was at ${inlineCode(placeOf({ file: stuck.file, line: stuck.line }))}${stuck.function ? ` (in ${inlineCode(stuck.function)})` : ''} ${at(stuck.log_line)}` : loc?.line !== undefined ? `; the log points at ${inlineCode(placeOf(loc))}` : '';
        steps.push(`The test ${inlineCode(f.test.name)} ${at(f.test.log_line)} did not finish within the time limit ${m}${where}. Look there for what it waits on that never comes: ${waitsOf(f)}, a server that never answers; raise the limit only if the work really takes that long.`);
      } else if (abortedBy(f.message)) {
        // A person stopped it: no limit ran out, so there is no limit to raise (issue 25, claims review).
        steps.push(`${inlineCode(abortedBy(f.message) as string)} stopped the build ${m}; the log does not say why. Ask them, or run the build again if it was stopped by mistake.`);
      } else {
        steps.push(`Find what the step was doing when it was stopped (the lines before ${m}): a hung test, a service that never came up, a slow download; raise the time limit only if the work really takes that long.`);
      }
      break;
    }
    case 'permission-credentials':
      steps.push(
        /\bNo public key\b|\bNO_PUBKEY\b|\bNOKEY\b/.test(f.message)
          ? `The signature cannot be checked: the signer's public key is not in the keyring the step uses ${m}. Import it there first (\`gpg --import <key file>\`, a key committed to the repository or fetched from a trusted source), then verify again.`
          : /\bBAD signature\b|\bsignature verification failed\b|\bsignatures? (?:is |are )?invalid\b/i.test(f.message)
            ? `The signature does not match the file ${m}: the file changed after it was signed, or the signature is for another file; fetch both again from the source, and do not skip the check.`
            : refusalStep(f, m),
      );
      {
        // A path the operating system refused (not a credential): as under an exception, the log cannot say
        // whether the path's owner and mode or the step's user is the side to change (osCondition.ts).
        const os = osConditionOf(f.message);
        if (os?.kind === 'permission' || os?.kind === 'read-only') unsure = osUnsure(os, stepUserIn(i.stored, f.message_line)?.user);
      }
      break;
    case 'missing-tool': {
      // A shared library the loader could not find when the program started: no command is missing.
      if (f.linkage?.stage === 'load') {
        steps.push(...loadSteps(f, i.stored, m));
        break;
      }
      const std = /package ([\w/]+) is not in (?:GOROOT|std) \((?:\S*?go-?([\d.]+)\/)?/.exec(f.message);
      if (std) {
        const since = GO_STD_SINCE[std[1] as string];
        steps.push(`${inlineCode(std[1] as string)} is a standard-library package ${since ? `since Go ${since}` : 'of a newer Go'}, and the Go that ran the build${std[2] ? ` is go${std[2]}` : ' is older'} ${m}: build with Go ${since ?? 'of that release'} or newer on the agent (the image or tool installer the step uses; \`go version\` in the step shows it) and say so in \`go.mod\` (${inlineCode(`go ${since ?? '<version>'}`)}), or avoid the package.`);
        break;
      }
      const release = /release version (\d+) not supported|invalid (?:target|source) release: (\d+)/.exec(f.message);
      if (release) {
        const v = (release[1] ?? release[2]) as string;
        steps.push(`The build asks javac for Java ${v} and the JDK that ran it is older ${m}: run the build on JDK ${v} or newer (install it on the agent and point \`JAVA_HOME\` at it, a \`tools { jdk }\` entry, or a Maven toolchain), or lower \`maven.compiler.release\` to what the agent's JDK supports and drop the newer language features.`);
        break;
      }
      // Without a symbol, a wording the diagnostic table knows (a pytest plugin's flag) supersedes this general step.
      const general =
        f.symbol
          ? `Install ${inlineCode(f.symbol)} on the agent or run the step where it exists (a \`tools {}\` entry, a Docker image that has it, an agent label); \`which ${f.symbol}\` in the step shows what the agent sees ${m}.`
          : /\d+\.\d+/.test(f.message)
            ? `Use the tool version the message names on the agent ${m}.`
            : `Install or enable on the agent what the message says is missing ${m}.`;
      steps.push(f.symbol ? general : { text: general, lines: [], id: MISSING_TOOL_GENERAL });
      break;
    }
    case 'lint': {
      // go vet's printf check names the argument's type: the verb that prints that type.
      const vet = /format (%\w) has arg (\S+) of wrong type (\*?[\w.[\]]+)/.exec(f.message);
      if (vet) {
        const type = vet[3] as string;
        const verb = type === 'string' || type === '[]byte' ? '%s' : /^u?int\d*$|^byte$|^rune$/.test(type) ? '%d' : /^float/.test(type) ? '%g' : type === 'bool' ? '%t' : type.startsWith('*') ? '%p' : '%v';
        steps.push(`${inlineCode(vet[2] as string)} is a ${inlineCode(type)}, which ${inlineCode(vet[1] as string)} does not print: use ${inlineCode(verb)} for it (or ${inlineCode('%v')}, which prints any value) ${m}.`);
      }
      // The place and rule are read off the report; the citation is the report's message, so they do not sit next to it.
      steps.push(`${place ? `Fix ${place}` : 'Fix what the check reports (the log names no file or line for it)'} as the tool reports it ${m}${f.code ? ` (rule ${inlineCode(f.code)})` : ''}${lintFixCommand(f) ? `, or let the tool fix what it can: ${inlineCode(lintFixCommand(f) as string)}` : ''}.`);
      break;
    }
    case 'ci-script':
      if (f.tool === 'make' && f.symbol) {
        steps.push(`The command asks make for the target ${inlineCode(f.symbol)}, and the Makefile has no rule for it ${m}: add a ${inlineCode(`${f.symbol}:`)} rule to the Makefile, or drop ${inlineCode(f.symbol)} from the make command in the CI script (${inlineCode('make -n ' + f.symbol)} checks it without running anything).`);
        break;
      }
      {
        // bash's `set -u`: a variable read that nothing set (not a syntax error: `bash -n` passes it).
        const unbound = UNSET_VARIABLE.exec(f.message);
        if (unbound) {
          const name = unbound[1] as string;
          steps.push(
            `The script reads ${inlineCode('$' + name)}${place ? ` at ${place}` : ''} and nothing set it ${m} (the shell runs with ${inlineCode('set -u')}, so an unset variable stops it): set ${inlineCode(name)} in the job's environment or parameters, or give it a default where it is read, ${inlineCode('${' + name + ':-<default>}')}.`,
          );
          break;
        }
        // `bash -e` and `(( n++ ))`: the post-increment's value is the old one, 0 is status 1.
        const arith = /^\(\(\s*([A-Za-z_]\w*)(\+\+|--)\s*\)\)$/.exec(f.message.trim());
        if (arith) {
          const [, name, op] = arith as unknown as [string, string, string];
          steps.push(`Nothing printed an error: the script stopped on ${inlineCode(f.message)} ${m}. Under \`bash -e\`, ${inlineCode(`(( ${name}${op} ))`)} has the value ${inlineCode(name)} had before, and when that is 0 the command's status is 1, so \`-e\` ends the script. Write ${inlineCode(`(( ${name}${op === '++' ? '+=' : '-='}1 ))`)} or ${inlineCode(`${name}=$((${name} ${op === '++' ? '+' : '-'} 1))`)} instead.`);
          break;
        }
        if (/^\(\(.+\)\)$|^let /.test(f.message.trim())) {
          steps.push(`Nothing printed an error: under \`bash -e\` the arithmetic command ${inlineCode(f.message)} evaluated to 0, which is exit status 1, and the script stopped there ${m}. Make the command's value non-zero, or write it as an assignment (${inlineCode('x=$(( ... ))')}) or append ${inlineCode('|| true')} where 0 is a valid result.`);
          break;
        }
        if (f.tool === 'npm' && f.symbol) {
          steps.push(`The step runs ${inlineCode(`npm run ${f.symbol}`)}, and \`package.json\` has no ${inlineCode(f.symbol)} script ${m}: add it to \`scripts\` in \`package.json\`, or run the name the script has now (\`npm run\` lists them) in the CI script.`);
          break;
        }
        if (f.tool === 'git' && f.symbol) {
          steps.push(`git does not know ${inlineCode(f.symbol)} in this checkout ${m}: the tag, branch or commit the script names does not exist here. Check where the script gets the revision from (a file, a variable, a parameter) and that it names one that exists (\`git tag -l\` lists the tags, \`git describe --tags\` shows the latest); if it should exist, fetch it (\`git fetch --tags\`).`);
          break;
        }
        // A GNU tool's usage error (coreutils' `missing destination file operand after 'out/etc/'`, ux17): the command line
        // lacked a word, or had one too many; which word is in the line as it ran, make's echo or the shell's trace.
        const usage = f.tool ? /^(?:\S*\/)?[\w.+-]+: (?:(missing) (?:destination )?(?:file )?operand|extra operand)\b/.exec(f.message.trim()) : null;
        if (usage && f.tool) {
          const by = MAKEFILE.test(loc?.file ?? '') && place ? `the recipe line at ${place}` : place ? `the script's line at ${place}` : 'the script';
          steps.push(
            usage[1]
              ? `${inlineCode(f.tool)} ran without a word its command line needs ${m}: a word of the line expanded to nothing (an empty variable, a glob that matched no file) or is missing. Compare the command as it ran (make's echo or the shell's trace above the error) with ${by}, and give that word its value.`
              : `${inlineCode(f.tool)} got more words than it takes ${m}: a value with a space in it split into two words, or a glob matched more files than one. Compare the command as it ran (make's echo or the shell's trace above the error) with ${by}, and quote that word.`,
          );
          break;
        }
        if (f.tool === 'sh' || f.tool === 'bash') {
          steps.push(/syntax error|unexpected (?:EOF|end of file|token)/i.test(f.message) ? `Fix the shell script's syntax at the line the shell names ${m}; \`bash -n <script>\` checks it without running it.` : { id: SHELL_SCRIPT_GENERAL, lines: [], text: `Fix the shell script at the line the shell names ${m}, as its message says.` });
          break;
        }
        // The pipeline's own script only when the error is Jenkins' (WorkflowScript, a step); another tool's refusal is of the command the CI script ran.
        // An error placed in a Makefile or a script of the project is not the pipeline's: Replay cannot change it (ux9).
        steps.push(f.tool === 'jenkins' || (f.tool === undefined && !inProjectFile(f)) ? `Fix the pipeline script${place ? ` at ${place}` : ''} as the message says ${m}; Replay on the build's page lets you try the edit without a commit.` : f.tool === undefined ? `Fix the command ${place} runs (or the file it reads) as the message says ${m}.` : `Fix the ${inlineCode(f.tool)} command the CI script runs (or the file it reads its settings from)${place ? ` at ${place}` : ''} as the message says ${m}.`);
      }
      break;
    case 'agent-lost': {
      const label = noAgentLabel(f);
      steps.push(
        label
          ? `Bring an agent with the label ${inlineCode(label)} online (Manage Jenkins › Nodes: an agent offline or disconnected, a cloud that cannot start one), or point the pipeline's \`agent { label ... }\` / \`node(...)\` at a label that exists; then re-run ${m}.`
          : `Check the agent: its log on the controller (Manage Jenkins › Nodes), its memory and disk, and the network between them; then re-run ${m}.`,
      );
      break;
    }
    case 'unknown': {
      // The trace of a command that printed nothing is no error to start from (ux15): run the command.
      const silent = silentStopOf(f, i.lineText);
      if (silent) {
        unsure = { text: `I can't tell what the fix is: ${inlineCode(silent.command)} ${at(silent.line)} printed nothing before the step failed, and ${exitWords(silent)}.`, sides: false };
        steps.push(silentStopStep(silent));
        break;
      }
      unsure = { text: `I can't tell what the fix is: the log's error ${m} matches no failure class I can establish.`, sides: false };
      steps.push(`Start from ${inlineCode(clip(f.message, 200))} ${m} and the command that printed it.`);
      // The class its words suggest, conditional (likely.ts): a guess, never the remedy of an established class.
      if (likelyStep(f)) steps.push(likelyStep(f) as string);
      break;
    }
  }
  return { steps, ...(unsure ? { unsure } : {}) };
}

/** A symbol the linker found defined twice (GNU ld, lld, Apple ld). */
export const DUPLICATE_SYMBOL = /(?:multiple definition of|duplicate symbol:?)\s*[`'‘"_]*([A-Za-z_][\w:]*)/;

/** The diagnostic without the place it names (`src/a.ts(5,30): error TS2339: X` -> `X`). */
/** The one port the 12 lines above the message give `host` (`http://127.0.0.1:47999/simple`, a command's URL), with the line; none when they give two. */
function portAbove(i: RemedyInput, host: string): { port: string; line: number } | undefined {
  if (!i.lineText) return undefined;
  const re = new RegExp(`(?:^|[^\\w.])${escapeRegExp(host)}:(\\d{2,5})\\b`);
  let found: { port: string; line: number } | undefined;
  for (let n = i.m0; n >= Math.max(1, i.m0 - 12); n--) {
    const port = re.exec(i.lineText(n) ?? '')?.[1];
    if (port === undefined) continue;
    if (found && found.port !== port) return undefined;
    found ??= { port, line: n };
  }
  return found;
}

function diagnosticText(f: Finding): string {
  return f.message
    .replace(/^(?:e|w|E): (?:file:\/\/)?/, '')
    .replace(/^\S+?(?:\(\d+,\d+\)|:\[\d+,\d+\]|:\d+(?::\d+)?)[:\s-]*/, '')
    .replace(/^(?:fatal )?error(?:\[\w+\]| TS\d+)?:\s*/, '')
    .trim() || f.message;
}

/** The Go release that added a standard-library package (the ones code most often reaches for first). */
const GO_STD_SINCE: Record<string, string> = { slices: '1.21', maps: '1.21', cmp: '1.21', 'log/slog': '1.21', 'math/rand/v2': '1.22', iter: '1.23', unique: '1.23', 'crypto/ecdh': '1.20', 'net/netip': '1.18', 'io/fs': '1.16', embed: '1.16', 'testing/slogtest': '1.21', 'go/version': '1.22', 'crypto/mlkem': '1.24', weak: '1.24', 'crypto/sha3': '1.24' };

/** The step for a server that answered it has no file at the URL (fx20): the URL is what to correct; a re-run gets the same answer. */
function noSuchFileStep(f: Finding, status: HttpStatus, at: (line: number) => string): string {
  const url = status.url ?? 'the URL';
  const dir = status.url && /^[a-z]+:\/\/[^/]+\/.+\//i.test(status.url) ? status.url.replace(/[^/]+$/, '') : undefined;
  return `${capital(answeredWords(status, f.host, at))}: the host was reached and has no file at that URL, so a re-run gets the same answer. Check the URL's version, file name and path against what the server publishes${dir ? ` (${inlineCode(dir)} or the project's release page lists them)` : ''}: a release asset renamed, a version not published (yet), a path moved. Then correct the URL where the build sets it (the script or the setting that holds it); ${inlineCode(`curl -fsSI '${url === 'the URL' ? 'URL' : url}'`)} shows the status the server gives.`;
}
