/**
 * "Was it the infrastructure or the code?" and "can a re-run fix it?": what the first finding's
 * class says about which side failed, said only as far as the class decides it (issue 25: a
 * wrong confident answer is worse than "I can't tell").
 */
import { osKindWords } from '../../../core/finding/errno.js';
import { noAgentLabel } from '../../../core/finding/noAgent.js';
import type { Finding, FindingClass } from '../../../protocol/types.js';
import { buildLabel } from '../facts.js';
import { clip, inlineCode, type LogSpan } from '../logtext.js';
import { abortedBy, at, citeMessage, findingFor } from './findingText.js';
import { hasLog, lineTextOf, rankedErrorExcerpts, reportsOnly } from './logHelpers.js';
import { offlineLine } from './remedyWhere.js';
import { refusalWords, tlsRefusalFor } from './tlsRefusal.js';
import { testTimeLimitOf } from './exceptions.js';
import { goLocalModule } from './goLocalModule.js';
import { capitalise } from './outcome.js';
import { type AnswerGroup, type Composer, ReplyBuilder, notSaid } from './reply.js';

/** Which side a class of failure is on, from the class alone. */
export type Side = 'code' | 'ci-config' | 'environment' | 'either';

const SIDE: Record<FindingClass, Side> = {
  'compile-error': 'code',
  'link-error': 'code',
  lint: 'code',
  'test-assertion': 'code',
  'test-error': 'code',
  'runtime-exception': 'code',
  'ci-script': 'ci-config',
  network: 'environment',
  'agent-lost': 'environment',
  'disk-full': 'environment',
  'missing-tool': 'environment',
  'permission-credentials': 'either',
  'dependency-resolution': 'either',
  'out-of-memory': 'either',
  'timeout-aborted': 'either',
  unknown: 'either',
};

/**
 * Exception messages about what the environment provides, and what to call it. A file and a permission are the OS
 * table's conditions (core/finding/errno.ts, as osWords.ts reads them), a permission also a cloud API's `AccessDenied`
 * (S3's, a role's grant; surefire's short `» AccessDenied`); a connection is wider than a refusal (a reset, a name not
 * resolved, a time-out); a Python module or a program not found is the code's when it names the wrong one, the agent's
 * when it should have been installed.
 */
const ENVIRONMENT_NEEDS: [RegExp, string][] = [
  // Surefire's summary shortens an exception's name (`ExporterTest.writes:18 » NoSuchFile /tmp/x.csv`).
  [new RegExp(`${osKindWords('missing-path').source}|» (?:NoSuchFile|FileNotFound)\\b`, 'i'), 'a file or directory'],
  // The error symbols are whole words outside a path (`getaddrinfo ENOTFOUND host`, not `/ws/filenotfound/` or
  // `cache/enotfound.json`).
  [/(?<![\w/\\.-])(?:ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT)(?![\w/\\])|Connection refused|ConnectException|UnknownHost|getaddrinfo|Name or service not known|timed out/i, 'a connection'],
  [new RegExp(`${osKindWords('permission').source}|AccessDenied`, 'i'), 'a permission'],
  // A module or a program that is not there: the build's own (renamed, misspelt) or one the agent should have installed.
  [/\bModuleNotFoundError\b|\bNo module named\b/, 'a module'],
  [/\bExecutableNotFound\b/, 'an executable'],
  [/KeyError: '[A-Z][A-Z0-9_]+'|environment variable|os\.environ|getenv/i, 'a setting (an environment variable)'],
];

/** What an exception's message says the program needed of the environment (`a file or directory`...), if anything. */
export const environmentNeedOf = (message: string): string | undefined => ENVIRONMENT_NEEDS.find(([re]) => re.test(message))?.[1];

/**
 * What the runtime itself calls what stopped the program (ux14): an exception where it names one,
 * else a Fortran, Lua or R runtime error, a panic (Go, Rust) or the signal that stopped it.
 */
function runtimeWord(f: Finding): string {
  if (f.exception === 'panic') return 'panic';
  if (f.exception && /^SIG/.test(f.exception)) return 'signal';
  if (f.exception && /Sanitizer/.test(f.exception)) return 'sanitizer report';
  return !f.exception || f.exception === 'error' ? 'runtime error' : 'exception';
}

/** Who raised it, in the runtime's words: "the exception was raised by the program or its tests", "the runtime error came from the program". */
function raisedBy(f: Finding): string {
  const word = runtimeWord(f);
  if (word === 'exception') return 'the exception was raised by the program or its tests';
  if (word === 'signal') return `the signal ${inlineCode(f.exception as string)} stopped the program`;
  return `the ${word} came from the program${f.class === 'test-error' ? ' or its tests' : ''}`;
}

/** What the class says, one sentence per side; `either` says what would tell them apart. */
function verdictOf(f: Finding, lineText?: (n: number) => string | undefined): { lead: string; why: string } {
  const side = SIDE[f.class];
  const by = f.class === 'timeout-aborted' ? abortedBy(f.message) : undefined;
  if (by) return { lead: '**Neither, as far as the log shows.**', why: `${inlineCode(by)} stopped the build; nothing in the log says that the code or the infrastructure failed.` };
  if (f.class === 'unknown') return { lead: "**I can't tell from the log.**", why: 'Its first error establishes no cause, so neither the code nor the infrastructure is shown to be at fault.' };
  if (side === 'code') {
    const runtime = f.class === 'runtime-exception' || f.class === 'test-error';
    // An exception about something the environment provides decides nothing by its class.
    const needs = runtime ? environmentNeedOf(f.message) : undefined;
    if (needs) {
      return {
        lead: "**I can't tell which from the log alone.**",
        why: `The ${runtimeWord(f)} is about ${needs} the program needed: the code is wrong if it asks for the wrong one, the environment if it should have been there.`,
      };
    }
    return {
      lead: '**The code, as far as the log shows.**',
      why: runtime
        ? `${capitalise(raisedBy(f))}; it points at the environment only if it is about something the environment provides (a file, a service, a setting), which the message would name.`
        : `A ${f.class === 'lint' ? 'lint finding' : f.class === 'link-error' ? 'link error' : f.class === 'compile-error' ? 'compile error' : 'failing test check'} comes from the code, its tests or its build files, not from the agent or the network.`,
    };
  }
  if (side === 'ci-config') return { lead: "**The build's own scripts (the CI configuration), not the infrastructure.**", why: 'The error is in a command or script the build runs.' };
  if (side === 'environment') {
    // A refused certificate: the host answered (never "could not reach"), and the certificate, the agent's trust or the
    // URL's host can be what is wrong (ux15's left item, session 54).
    const refused = f.class === 'network' ? tlsRefusalFor(f, lineText) : undefined;
    if (refused) {
      return {
        lead: "**I can't tell which from the log alone.**",
        why: `The host answered, but the client refused its TLS certificate: ${refusalWords(refused)}. That is the server's certificate or the agent's trusted CAs, unless the build asks for the wrong host; the log does not show which.`,
      };
    }
    const what: Partial<Record<FindingClass, string>> = {
      network: 'the build could not reach a host it needed',
      'agent-lost': noAgentLabel(f) ? `no agent with the label ${noAgentLabel(f) as string} was online to run the build` : 'the agent running the build went away',
      'disk-full': 'the agent ran out of disk space',
      'missing-tool': 'a tool the step needs is missing on the agent or the wrong version (unless the project asks for a version it should not)',
    };
    return { lead: '**The infrastructure, as far as the log shows.**', why: `It shows that ${what[f.class] ?? 'the environment failed'}, not that the code is wrong.` };
  }
  const offline = f.class === 'dependency-resolution' ? offlineLine(f, lineText) : undefined;
  const either: Partial<Record<FindingClass, string>> = {
    'permission-credentials': 'A refused permission or credential is the setup (a secret, an owner, an executable bit), but the log does not show whether the setup or a change to what the build calls is wrong.',
    'dependency-resolution': offline !== undefined
      ? `The build ran offline${offline === f.message_line ? '' : ` ${at(offline)}`}, so it could use only what the agent's local cache held: that is the environment, unless the project asks for something new.`
      : 'A dependency that does not resolve is the build files when they ask for a version that does not exist, and the infrastructure when the repository cannot be reached; the log alone does not tell which.',
    'out-of-memory': 'Running out of memory is the agent when it has too little, and the code when it uses too much; the log does not show which.',
    'timeout-aborted': 'A timeout stops slow work and hung work alike (a slow agent, a service that never answered, a test that waits forever); the log does not show which.',
  };
  return { lead: "**I can't tell which from the log alone.**", why: either[f.class] ?? 'The log does not decide it.' };
}

function firstFinding(ask: Parameters<Composer>[0]): { f: Finding; again: boolean; top: LogSpan } | undefined {
  const top = rankedErrorExcerpts(ask.ctx)[0];
  if (!top) return undefined;
  return { f: findingFor(ask.ctx, top), again: top.new_since_baseline === false, top };
}

/** "Was it the infrastructure or the code?" */
const infraOrCode: Composer = (ask) => {
  const build = buildLabel(ask.ci);
  if (!hasLog(ask.ctx)) return notSaid(`whether ${build} failed on the infrastructure or the code`, 'It holds no build log to read the error from.');
  const first = firstFinding(ask);
  if (!first) return notSaid(`whether ${build} failed on the infrastructure or the code`, 'I found no error lines in its log.');
  const { f, again, top } = first;
  const text = lineTextOf(ask.ctx, top);
  const { lead, why } = verdictOf(f, text);
  const out = new ReplyBuilder().log({ start_line: f.message_line, end_line: f.message_line });
  const off = f.class === 'dependency-resolution' ? offlineLine(f, text) : undefined;
  if (off !== undefined) out.log({ start_line: off, end_line: off });
  const refused = f.class === 'network' ? tlsRefusalFor(f, text) : undefined;
  if (refused && refused.line !== f.message_line) out.log({ start_line: refused.line, end_line: refused.line });
  const cited = citeMessage(f, text);
  const opening = reportsOnly(f.message) ? `The log's first error line ${cited} only reports that a step failed, not why` : f.class === 'unknown' ? `The first line that looks like an error is ${cited}` : `The first real error is ${cited}`;
  out.line(`${lead} ${opening}: ${inlineCode(clip(f.message))}. ${why}`);
  if (again) out.line('\nThis error also appears in the last green build, so it may not be what broke this one.');
  return out.reply();
};

/** What a re-run can show for a class: a sentence, and whether a re-run is the next step. */
export function rerunOutlook(f: Finding): { text: string; rerunFirst: boolean } {
  // A module of the repository's own that go fetched (`@v0.0.0`): no proxy has it, whether the network is up or not.
  if (goLocalModule(f) !== undefined) return { text: `go fetched ${inlineCode(`${goLocalModule(f) as string}@v0.0.0`)}: \`v0.0.0\` is the version of a module the repository holds in a directory (no published version), so a re-run will most likely fail the same way until \`go.work\` (or a \`replace\`) points go at its directory.`, rerunFirst: false };
  switch (SIDE[f.class]) {
    case 'code':
    case 'ci-config': {
      const testing = f.class === 'test-assertion' || f.class === 'test-error';
      const limit = testing ? testTimeLimitOf(f.message) : undefined;
      return {
        // Said of the class, not of the whole log: only the first error was read.
        text: limit
          ? `The test's check is a time limit (${inlineCode(limit)}): whether it holds depends on how fast the agent ran the code, so a re-run without changes may pass or fail, and one build cannot show which; a pass on a re-run would not mean it is fixed.`
          : testing
            ? 'A re-run without changes will most likely fail the same way, unless the test fails only now and then (it depends on timing, order or the environment), which one build cannot show.'
            : "That kind of error comes from the code or the build's own setup, not from timing, the network or the agent, so a re-run without changes will most likely fail the same way.",
        rerunFirst: false,
      };
    }
    case 'environment':
      return {
        text:
          f.class === 'disk-full'
            ? 'A re-run passes only once space is freed on the agent, or on another agent.'
            : f.class === 'missing-tool'
              ? 'A re-run on the same agent will fail the same way; on an agent that has the tool it can pass.'
              : f.class === 'agent-lost'
                ? noAgentLabel(f)
                  ? 'A re-run waits the same way until an agent with that label is online.'
                  : 'A re-run on an agent that stays connected can pass.'
                : 'If the host was unreachable only for a while, a re-run can pass.',
        rerunFirst: f.class !== 'missing-tool' && f.class !== 'disk-full' && !noAgentLabel(f),
      };
    default:
      if (f.class === 'timeout-aborted' && abortedBy(f.message)) return { text: `${inlineCode(abortedBy(f.message) as string)} stopped it, so it did not fail on its own: a re-run runs it to the end unless it is stopped again.`, rerunFirst: true };
      return { text: "I can't tell from the log whether a re-run will pass.", rerunFirst: true };
  }
}

/** A question that asks whether a re-run will do ("can I just retry?", "should I re-run it?"), not how to start one. */
export const RETRY_QUESTION = /\b(?:can|could|should|shall|may|will|would|is it (?:ok|okay|safe|worth)|worth)\b.*\b(?:re-?try|re-?run|rebuild|re-?trigger|run (?:it )?again|build (?:it )?again)\b|\bjust (?:re-?try|re-?run|rebuild)\b/i;

/** The answer to "can I just retry?" in one line: yes, no or "I can't tell" first, then the first error and what its class says. */
export function retryVerdict(f: Finding, label: string): string {
  const outlook = rerunOutlook(f);
  const first = `The first error is ${label} ${at(f.message_line)}.`;
  const lead = retryLead(f);
  // "I can't tell" is said once: the outlook's own "I can't tell from the log..." would repeat it.
  if (lead === "I can't tell") return `**I can't tell from the log whether a re-run will pass:** the first error is ${label} ${at(f.message_line)}, and nothing in the log shows whether its cause lasts.`;
  return `**${lead}:** ${first} ${outlook.text}`;
}

/** Whether a re-run without changes will do, by the first error's class: the lead of `retryVerdict`. */
export function retryLead(f: Finding): string {
  const outlook = rerunOutlook(f);
  const side = SIDE[f.class];
  // A test's own time limit passes or fails with the agent's speed (ux7): not "not without a change".
  const timed = (f.class === 'test-assertion' || f.class === 'test-error') && testTimeLimitOf(f.message) !== undefined;
  return timed
    ? 'It may pass'
    : side === 'code' || side === 'ci-config' || goLocalModule(f) !== undefined
      ? 'Not without a change'
      : f.class === 'missing-tool' || f.class === 'disk-full'
        ? 'Not on the same agent as it is'
        : f.class === 'timeout-aborted' && abortedBy(f.message)
          ? 'Yes'
          : outlook.rerunFirst && side === 'environment'
            ? 'It may pass'
            : "I can't tell";
}

export const blameAnswers: AnswerGroup = { name: 'blame', composers: { infraOrCode } };
