/** Answers about the build: who started or aborted it, parameters, duration, result, history, changes, node, revision. */
import { buildLabel, envOf, formatDuration, jobNameOf, showValue } from '../facts.js';
import { cite, clip, storedLogSpan, headlineOf, inlineCode, diagnose, findLine, type LogSpan } from '../logtext.js';
import { type Ask, type Composer, ReplyBuilder, notSaid, type AnswerGroup, type Reply } from './reply.js';
import { outcomeOf, OUTCOME_PHRASE, capitalise, describeCause, timestampOf, formatTime } from './outcome.js';
import { jobTypeName } from './job.js';
import { errorExcerpts, retrieveSafely, hasLog, rankedErrorExcerpts, findInLog } from './logHelpers.js';
import { TOOL_DURATION } from './logFacts.js';
import { CLASS_LABEL, sinceLastGreen } from './failure.js';
import { at, findingFor } from './findingText.js';
import { rerunOutlook, retryVerdict, RETRY_QUESTION } from './blame.js';
import { describeChange } from './change.js';
import { parallelBranchReply } from './parallelBranch.js';

const aborter: Composer = async (ask) => {
  const { ci, ctx } = ask;
  const build = buildLabel(ci);
  const { outcome, raw } = outcomeOf(ci);
  const out = new ReplyBuilder();
  // Jenkins prints "Aborted by <user>" in the console when someone stops a build.
  const stored = storedLogSpan(ctx);
  const spans: LogSpan[] = [
    ...(stored ? [stored] : []),
    ...ctx.failureExcerpts,
    ...(stored?.start_line === 1 ? [] : await retrieveSafely(ctx, 'Aborted by', 3)),
  ];
  for (const span of spans) {
    const m = /^[^\S\n]*Aborted by[^\S\n]+(\S[^\n]*)$/m.exec(span.text);
    if (m) {
      let line = span.start_line;
      for (let i = span.text.indexOf('\n'); i >= 0 && i < m.index; i = span.text.indexOf('\n', i + 1)) line++;
      const who = (m[1] as string).trim();
      out.line(`**${who} aborted ${build}**, according to the log ${cite({ start_line: line, end_line: line })}.`);
      out.log({ start_line: line, end_line: line });
      return out.reply();
    }
  }
  if (outcome !== 'aborted' && outcome !== 'unknown') {
    out.fact('buildDetails.result');
    out.line(`${capitalise(build)} was not aborted: it ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}.`);
    return out.reply();
  }
  // A timeout step aborts a build without anyone pressing stop.
  const timedOut = rankedErrorExcerpts(ctx)
    .map((e) => diagnose(e))
    .find((d) => d?.kind === 'timeout' && d.line !== undefined);
  if (timedOut?.line !== undefined && (outcome === 'aborted' || outcome === 'unknown')) {
    const at = { start_line: timedOut.line, end_line: timedOut.line };
    out.line(`**A timeout aborted ${build}, not a person**, according to the log ${cite(at)}: ${inlineCode(clip(timedOut.lineText ?? ''))}`);
    out.log(at);
    if (outcome === 'aborted') out.fact('buildDetails.result');
    out.line(`\n**Next step:** ${timedOut.nextStep}`);
    return out.reply();
  }
  out.line(`The uploaded context does not say who aborted ${build}.`);
  const known: string[] = [];
  if (outcome === 'aborted') {
    known.push(`its result is ${inlineCode('ABORTED')}`);
    out.fact('buildDetails.result');
  }
  const causes = ci.buildDetails?.causes;
  if (Array.isArray(causes) && causes.length > 0) {
    known.push(`it was ${causes.map(describeCause).join('; ')}`);
    out.fact('buildDetails.causes');
  }
  if (known.length > 0) out.line(`It does say ${known.join(', and ')}.`);
  if (!hasLog(ctx)) out.line('The console log would show an "Aborted by" line: upload it to know more.');
  return out.reply();
};

const causes: Composer = ({ ci }) => {
  const list = ci.buildDetails?.causes;
  const build = buildLabel(ci);
  if (!Array.isArray(list) || list.length === 0) return notSaid(`who or what started ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.causes');
  const [first, ...rest] = list.map(describeCause);
  out.line(`${capitalise(build)} was ${first}.`);
  for (const other of rest) out.line(`- also ${other}`);
  return out.reply();
};

const parameters: Composer = ({ ci }) => {
  const params = ci.buildDetails?.parameters;
  const build = buildLabel(ci);
  if (!params) return notSaid(`which parameters ${build} ran with`);
  const list = Object.entries(params).map(([name, value]) => ({ name, value }));
  const out = new ReplyBuilder().fact('buildDetails.parameters');
  if (list.length === 0) return out.line(`${capitalise(build)} ran **without parameters**.`).reply();
  out.line(`${capitalise(build)} ran with **${list.length} parameter${list.length === 1 ? '' : 's'}**:`);
  for (const p of list) out.line(`- ${inlineCode(p.name)} = ${inlineCode(clip(showValue(p.value), 200))}`);
  return out.reply();
};

const duration: Composer = ({ ci, ctx }) => {
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const out = new ReplyBuilder();
  const started = timestampOf(ci);
  if (details?.building === true) {
    out.fact('buildDetails.building');
    out.line(`**${capitalise(build)} is still running**${started ? `: it started at ${formatTime(started)}` : ''}.`);
    if (started) out.fact('buildDetails.timestamp');
    return out.reply();
  }
  if (typeof details?.duration !== 'number') {
    const stored = storedLogSpan(ctx);
    const tool = findLine(stored, TOOL_DURATION, { fromEnd: true });
    if (!tool) return notSaid(`how long ${build} took`);
    const took = tool.match.slice(1).find(Boolean) as string;
    out.line(`The uploaded context does not record how long ${build} took; **the build tool reports ${took.trim()}** ${cite({ start_line: tool.line, end_line: tool.line })}: ${inlineCode(clip(tool.text))}`);
    out.log({ start_line: tool.line, end_line: tool.line });
    return out.reply();
  }
  out.fact('buildDetails.duration');
  out.line(`**${capitalise(build)} took ${formatDuration(details.duration)}.**`);
  const previous = details.previousBuild;
  const previousMs = previous?.duration;
  if (previous && typeof previousMs === 'number') {
    out.fact('buildDetails.previousBuild');
    out.line(`The previous build, #${previous.number}, took ${formatDuration(previousMs)}.`);
  }
  return out.reply();
};

const result: Composer = ({ q, ci, ctx }) => {
  const build = buildLabel(ci, true);
  const { outcome, raw } = outcomeOf(ci);
  if (outcome === 'unknown' && !raw) return notSaid(`how ${buildLabel(ci)} ended`);
  const out = new ReplyBuilder().fact(outcome === 'running' ? 'buildDetails.building' : 'buildDetails.result');
  const stated = `${build} ${OUTCOME_PHRASE[outcome]}${raw ? ` (${inlineCode(raw)})` : ''}`;
  // A yes/no question gets its yes or no first.
  const asksPass = /\b(pass\w*|succe\w*|green|work\w*|ok)\b/.test(q);
  const asksFail = /\b(fail\w*|red|broken|break)\b/.test(q);
  const asksRunning = /\b(running|building|in progress|finished|done)\b/.test(q);
  const good = outcome === 'passed';
  let yesNo = '';
  if (asksRunning) yesNo = outcome === 'running' ? (/\b(finished|done)\b/.test(q) ? 'No — ' : 'Yes — ') : /\b(finished|done)\b/.test(q) ? 'Yes — ' : 'No — ';
  else if (asksPass && outcome !== 'running') yesNo = good ? 'Yes — ' : 'No — ';
  else if (asksFail && outcome !== 'running') yesNo = good ? 'No — ' : 'Yes — ';
  out.line(`**${yesNo}${yesNo ? stated : capitalise(stated)}.**`);
  const details = ci.buildDetails;
  if (typeof details?.duration === 'number' && outcome !== 'running') {
    out.line(`It took ${formatDuration(details.duration)}.`);
    out.fact('buildDetails.duration');
  }
  const tests = details?.testResults;
  if (tests && typeof tests.failed === 'number' && tests.failed > 0) {
    out.line(`${tests.failed}${typeof tests.total === 'number' ? ` of ${tests.total}` : ''} tests failed.`);
    out.fact('buildDetails.testResults');
  }
  const top = errorExcerpts(ctx)[0];
  if (top && !good && outcome !== 'not built') {
    out.line(`The first error in the log is ${cite(top)}: ${inlineCode(clip(headlineOf(top).text))} — ask *why did it fail* for the details.`);
    out.log(top);
  }
  return out.reply();
};

const previous: Composer = ({ ci }) => {
  const details = ci.buildDetails;
  const build = buildLabel(ci);
  const prev = details?.previousBuild;
  if (prev === null) {
    return new ReplyBuilder()
      .fact('buildDetails.previousBuild')
      .line(`${capitalise(build)} is the first build${jobNameOf(ci) ? ` of ${inlineCode(jobNameOf(ci) as string)}` : ''}: there is no previous build.`)
      .reply();
  }
  if (!prev) return notSaid(`anything about the build before ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.previousBuild');
  const prevResult = typeof prev.result === 'string' ? prev.result.toUpperCase() : undefined;
  if (!prevResult) {
    out.line(`The previous build was **#${prev.number}**; the uploaded context does not say how it ended.`);
    return out.reply();
  }
  out.line(`The previous build, **#${prev.number}**, finished ${inlineCode(prevResult)}.`);
  const { outcome } = outcomeOf(ci);
  if (outcome === 'failed' || outcome === 'unstable') {
    out.fact('buildDetails.result');
    if (prevResult === 'SUCCESS') {
      out.line(`So ${build} is a **new failure**: what changed since #${prev.number} is the first suspect.`);
      const changes = details?.changes;
      if (Array.isArray(changes) && changes.length > 0) {
        out.fact('buildDetails.changes');
        for (const c of changes.slice(0, 5)) out.line(`- ${describeChange(c)}`);
      }
    } else if (prevResult === 'FAILURE' || prevResult === 'UNSTABLE') {
      out.line(`So it was **already failing** before ${build}.`);
    }
  } else if (outcome === 'passed' && prevResult !== 'SUCCESS') {
    out.fact('buildDetails.result');
    out.line(`${capitalise(build)} passed, so it **fixed** the build.`);
  }
  return out.reply();
};

const changes: Composer = async ({ ci, q, ctx }) => {
  // "What changed since the last green build?": the new error blocks and the commits in between.
  const sinceGreen = /\bsince\b|\bgreen\b|\blast (good|successful|passing|working)\b/.test(q);
  if (sinceGreen) {
    const since = sinceLastGreen(ci, ctx);
    if (since) return /\bdoes not list the commits since\b/.test(since.text) ? await withBuiltCommit(since, ctx) : since;
  }
  const list = ci.buildDetails?.changes;
  const build = buildLabel(ci);
  if (!Array.isArray(list)) return (await changesFromLog(ctx, build, sinceGreen)) ?? notSaid(`which changes went into ${build}`);
  const out = new ReplyBuilder().fact('buildDetails.changes');
  // No change in the record, but a log that names the commit it built (ux8: a record without a changelog beside a
  // log whose checkout says which commit and why): that commit, not a guess at why the list is empty.
  const built = list.length === 0 ? await builtCommit(ctx) : undefined;
  if (built) {
    out.log({ start_line: built.line, end_line: built.line });
    if (built.message) out.log({ start_line: built.message.line, end_line: built.message.line });
    const message = built.message ? `, whose message is ${inlineCode(clip(built.message.text, 160))} ${cite({ start_line: built.message.line, end_line: built.message.line })}` : '';
    out.line(`**${capitalise(build)} has no recorded changes** in its Jenkins record; its log shows the commit it built, ${inlineCode(built.sha)} ${cite({ start_line: built.line, end_line: built.line })}${message}.`);
  } else if (list.length === 0) out.line(`**${capitalise(build)} has no recorded changes** (same revision as before, or started by hand).`);
  else {
    out.line(`**${capitalise(build)} has ${list.length} change${list.length === 1 ? '' : 's'}:**`);
    for (const c of list.slice(0, 15)) out.line(`- ${describeChange(c)}`);
    if (list.length > 15) out.line(`- …and ${list.length - 15} more.`);
  }
  // "since the last green build", "who broke it": what the previous build says about that.
  const prev = ci.buildDetails?.previousBuild;
  const prevResult = typeof prev?.result === 'string' ? prev.result.toUpperCase() : undefined;
  const blames = /\bwho\b.*\b(broke|break\w*|caused|responsible|blame)\b|\bwhose\b/.test(q);
  if (prev && prevResult) {
    out.fact('buildDetails.previousBuild');
    out.line();
    if (prevResult === 'SUCCESS' && list.length === 0) {
      // Nothing listed: "these are the changes" would introduce an empty list (ux8).
      out.line(`The previous build, #${prev.number}, passed, and the record lists no change since${built ? ': the commit the log shows is the one to look at first' : ''}.`);
    } else if (prevResult === 'SUCCESS') {
      out.line(`The previous build, #${prev.number}, passed: these are the changes since the last green build${blames ? ', so they are the suspects (the context cannot prove which one broke it)' : ''}.`);
    } else {
      out.line(`The previous build, #${prev.number}, ended ${inlineCode(prevResult)} too. The uploaded context does not say which build last passed, so these are only the changes since #${prev.number}.`);
    }
  } else if (blames || /\bsince\b/.test(q)) {
    out.line();
    out.line('The uploaded context does not say how the previous build ended, so I cannot tell which change broke it.');
  }
  return out.reply();
};

/**
 * The log's `Checking out Revision` line: the commit the build built, and where it says so; with the
 * git plugin's `Commit message: "..."` line printed right under it, that commit's message (ux8).
 */
async function builtCommit(ctx: Ask['ctx']): Promise<{ sha: string; line: number; message?: { text: string; line: number } } | undefined> {
  const checkout = await findInLog(ctx, /Checking out Revision ([0-9a-f]{7,40})/, 'Checking out Revision');
  if (!checkout) return undefined;
  const said = await findInLog(ctx, /^\s*Commit message: "(.+)"\s*$/, 'Commit message');
  const message = said && said.line > checkout.line && said.line <= checkout.line + 3 ? { text: said.match[1] as string, line: said.line } : undefined;
  return { sha: (checkout.match[1] as string).slice(0, 12), line: checkout.line, ...(message ? { message } : {}) };
}

/**
 * The comparison with the last green build lists no commits (its log is kept as fingerprints, its
 * commit not): the commit this build's log names, cited, and the git command between the two (ux6).
 */
async function withBuiltCommit(since: Reply, ctx: Ask['ctx']): Promise<Reply> {
  const built = await builtCommit(ctx);
  if (!built) return since;
  const span = { start_line: built.line, end_line: built.line };
  const text = `${since.text}\nThis build checked out ${inlineCode(built.sha)} ${cite(span)}: ${inlineCode(`git log --oneline <last green commit>..${built.sha}`)} in a checkout lists them.`;
  return { text, sources: [...since.sources, { kind: 'log', ...span }] };
}

/**
 * No change list, but a log that names the commit it built (a piped console, ux6): that commit,
 * cited, and the two ways to the changes (git between the last green commit and it, or the last
 * green build's log uploaded beside this one).
 */
async function changesFromLog(ctx: Ask['ctx'], build: string, sinceGreen: boolean): Promise<Reply | undefined> {
  const built = await builtCommit(ctx);
  if (!built) return undefined;
  const { sha } = built;
  const out = new ReplyBuilder().log({ start_line: built.line, end_line: built.line });
  const said = built.message;
  if (said) out.log({ start_line: said.line, end_line: said.line });
  const message = said ? `, whose message is ${inlineCode(clip(said.text, 160))} ${cite({ start_line: said.line, end_line: said.line })}` : '';
  out.line(`The uploaded context does not say which changes went into ${build}: its log shows only the commit it built, ${inlineCode(sha)} ${cite({ start_line: built.line, end_line: built.line })}${message}${sinceGreen ? ", not the last green build's" : ''}.`);
  // That one commit's message is a lead, not the list: other commits may lie between the last green build and it.
  if (said) out.line(`Start there: that commit is in this build; the log does not show whether it is the only one since the last green build.`);
  out.line();
  // Says where the list would come from itself (so the engine does not add its field-name line, index.ts `withWhereFrom`).
  out.line(`The list would come from the build's record in Jenkins: upload with the job and build named (${inlineCode('cichat context upload CHAT --job J --build N')}) and the controller reads it from its JENKINS_HOME. Without that: ${inlineCode(`git log --oneline <last green commit>..${sha}`)} in a checkout, or upload the last green build's log beside this one (${inlineCode('cichat context upload CHAT --log fail.log --baseline-log pass.log')}), and the answer to "what changed since the last green build?" then lists the errors that are new since it.`);
  return out.reply();
}

const builtOn: Composer = ({ ci }) => {
  const recorded = ci.buildDetails?.builtOnNode;
  const env = typeof recorded === 'string' ? undefined : envOf(ci, 'NODE_NAME');
  const node = typeof recorded === 'string' ? recorded : env?.value;
  const build = buildLabel(ci);
  if (typeof node !== 'string') return notSaid(`which node ran ${build}`);
  const out = new ReplyBuilder().fact(env ? env.field : 'buildDetails.builtOnNode');
  // Jenkins records the built-in node as an empty name.
  const where = node === '' || /^(master|built-in)$/i.test(node) ? 'the **built-in node**' : `**${inlineCode(node)}**`;
  return out.line(`${capitalise(build)} ran on ${where}${env ? ` (the build environment's ${inlineCode(env.name)})` : ''}.`).reply();
};

const startTime: Composer = ({ ci }) => {
  const started = timestampOf(ci);
  const build = buildLabel(ci);
  if (!started) return notSaid(`when ${build} started`);
  const out = new ReplyBuilder().fact('buildDetails.timestamp');
  out.line(`${capitalise(build)} started at **${formatTime(started)}**.`);
  const ms = ci.buildDetails?.duration;
  if (typeof ms === 'number' && ci.buildDetails?.building !== true && ms > 0) {
    out.line(`It ran for ${formatDuration(ms)} and finished at ${formatTime(new Date(started.getTime() + ms))}.`);
    out.fact('buildDetails.duration');
  }
  return out.reply();
};

/** Which commit, branch or revision was built: the log's checkout line, a branch parameter, the job name. */
const revision: Composer = async (ask) => {
  const { ci, ctx, q } = ask;
  const build = buildLabel(ci);
  const out = new ReplyBuilder();
  const asksBranch = /\bbranch\b/.test(q);
  // A parallel branch of the Pipeline the question names ("did the syntax branch fail too?"), not the git branch.
  const parallel = asksBranch ? parallelBranchReply(q, storedLogSpan(ctx), ci.buildDetails?.result === 'IN_PROGRESS') : undefined;
  if (parallel) return parallel;
  const checkout = await findInLog(ctx, /Checking out Revision ([0-9a-f]{7,40})(?: \(([^)]+)\))?/, 'Checking out Revision');
  if (checkout) {
    const sha = checkout.match[1] as string;
    const ref = checkout.match[2]?.replace(/^(refs\/remotes\/origin\/|refs\/heads\/|origin\/|detached)/, '').trim();
    const lead = asksBranch && ref ? `**${capitalise(build)} built branch ${inlineCode(ref)}** at ${inlineCode(sha.slice(0, 12))}` : `**${capitalise(build)} built commit ${inlineCode(sha.slice(0, 12))}**${ref ? ` (branch ${inlineCode(ref)})` : ''}`;
    out.line(`${lead}, according to the log ${cite({ start_line: checkout.line, end_line: checkout.line })}.`);
    out.log({ start_line: checkout.line, end_line: checkout.line });
    return out.reply();
  }
  // What a pipeline step saw (`cichat context upload --from-env`): GIT_COMMIT, GIT_BRANCH and friends.
  const commitEnv = envOf(ci, 'GIT_COMMIT', 'GITHUB_SHA', 'CI_COMMIT_SHA', 'SVN_REVISION');
  const branchEnv = envOf(ci, 'GIT_BRANCH', 'BRANCH_NAME', 'GIT_LOCAL_BRANCH', 'CHANGE_BRANCH', 'GITHUB_REF_NAME');
  if (commitEnv || branchEnv) {
    const branch = branchEnv?.value.replace(/^(refs\/remotes\/origin\/|refs\/heads\/|origin\/)/, '');
    const sha = commitEnv ? inlineCode(commitEnv.value.slice(0, 12)) : undefined;
    if (commitEnv) out.fact(commitEnv.field);
    if (branchEnv) out.fact(branchEnv.field);
    const names = [commitEnv?.name, branchEnv?.name].filter(Boolean).map((n) => inlineCode(n as string)).join(' and ');
    if (asksBranch && branch) out.line(`**${capitalise(build)} built branch ${inlineCode(branch)}**${sha ? ` at commit ${sha}` : ''} (the build environment's ${names}).`);
    else if (sha) out.line(`**${capitalise(build)} built commit ${sha}**${branch ? ` on branch ${inlineCode(branch)}` : ''} (the build environment's ${names}).`);
    else out.line(`The uploaded context does not say which commit ${build} built; it does say the branch: **${inlineCode(branch as string)}** (the build environment's ${names}).`);
    return out.reply();
  }
  const params = Object.entries(ci.buildDetails?.parameters ?? {}).map(([name, value]) => ({ name, value }));
  const branchParam = params.find((p) => /branch|ref$|^git_?ref|revision|commit|sha/i.test(p.name) && typeof p.value === 'string' && p.value);
  if (branchParam) {
    out.fact('buildDetails.parameters');
    out.line(`${capitalise(build)} ran with ${inlineCode(branchParam.name)} = ${inlineCode(String(branchParam.value))}; the uploaded context records no checked-out commit.`);
    return out.reply();
  }
  return notSaid(asksBranch ? `which branch ${build} built` : `which commit ${build} built`, 'Neither the build facts nor the log record a checkout.');
};

/** How to run the build again: cichat reads Jenkins, it does not drive it. */
const rerun: Composer = ({ ci, ctx, q, question }) => {
  const out = new ReplyBuilder();
  const build = buildLabel(ci);
  // "Should I retry?" asks whether a re-run will do: that first, then how to start one.
  const first = rankedErrorExcerpts(ctx)[0];
  const verdictOf = first ? findingFor(ctx, first) : undefined;
  const asksWhether = verdictOf !== undefined && verdictOf.class !== 'unknown' && RETRY_QUESTION.test(question);
  if (asksWhether) out.line(`${retryVerdict(verdictOf, CLASS_LABEL[verdictOf.class])}\n`).log({ start_line: verdictOf.message_line, end_line: verdictOf.message_line });
  out.line(`**I can't start builds** — cichat only reads the uploaded context. To run ${build} again in Jenkins:`);
  const type = typeof ci.jobDetails?.jobType === 'string' ? jobTypeName(ci.jobDetails.jobType) : undefined;
  const params = Object.entries(ci.buildDetails?.parameters ?? {}).map(([name, value]) => ({ name, value }));
  if (params.length > 0) {
    out.fact('buildDetails.parameters');
    out.line(`- **Build with Parameters** with the same values: ${params.map((p) => `${inlineCode(p.name)} = ${inlineCode(clip(showValue(p.value), 60))}`).join(', ')}`);
  } else {
    out.line('- **Build Now** on the job page');
  }
  if (type && /Pipeline/.test(type)) {
    out.fact('jobDetails.jobType');
    out.line("- or **Replay** on the build's page (a Pipeline), to re-run it with an edited Jenkinsfile, or **Restart from Stage** (declarative pipelines)");
  }
  // "Should I retry?": what the first error's class says about a re-run, before the how.
  const top = rankedErrorExcerpts(ctx)[0];
  const found = top ? findingFor(ctx, top) : undefined;
  if (!asksWhether && found && found.class !== 'unknown' && /\b(should|shall|can|could|will|would|worth|help|just|pass)\b/.test(q)) {
    out.log({ start_line: found.message_line, end_line: found.message_line });
    out.line(`\n**Will a re-run pass?** The first error is ${CLASS_LABEL[found.class]} ${at(found.message_line)}. ${rerunOutlook(found).text}`);
  }
  out.line('\nIf it then passes with no change, the failure was intermittent: ask *is it flaky?*');
  return out.reply();
};

export const buildAnswers: AnswerGroup = {
  name: 'build',
  composers: { aborter, causes, parameters, duration, result, previous, changes, builtOn, startTime, revision, rerun },
};
