/** Answers about the job: type, description, whether it is buildable. */
import { jobNameOf } from '../facts.js';
import { inlineCode } from '../logtext.js';
import { type Composer, ReplyBuilder, notSaid, type AnswerGroup } from './reply.js';

const JOB_TYPES: [RegExp, string][] = [
  [/WorkflowMultiBranchProject|multi-?branch/i, 'Multibranch Pipeline'],
  [/OrganizationFolder/i, 'Organization Folder'],
  [/WorkflowJob|^pipeline$/i, 'Pipeline'],
  [/FreeStyleProject|free-?style/i, 'Freestyle project'],
  [/MavenModuleSet|maven/i, 'Maven project'],
  [/MatrixProject|matrix/i, 'Multi-configuration (matrix) project'],
  [/Folder/i, 'Folder'],
];

export function jobTypeName(type: string): string {
  for (const [pattern, name] of JOB_TYPES) if (pattern.test(type)) return name;
  return type;
}

const jobType: Composer = ({ q, ci }) => {
  const type = ci.jobDetails?.jobType;
  const job = jobNameOf(ci);
  const jobRef = job ? inlineCode(job) : 'The job';
  const isPipeline = ci.jobDetails?.isPipeline;
  if ((typeof type !== 'string' || !type) && typeof isPipeline === 'boolean') {
    // The original plugin may send only whether it is a pipeline.
    const out = new ReplyBuilder().fact('jobDetails.isPipeline');
    return out.line(isPipeline ? `**Yes — ${jobRef} is a Pipeline** (its steps come from a Jenkinsfile or a pipeline script).` : `**No — ${jobRef} is not a Pipeline** (a classic job: its steps are configured in the job).`).reply();
  }
  if (typeof type !== 'string' || !type) return notSaid('what type of job this is');
  const name = jobTypeName(type);
  const out = new ReplyBuilder().fact('jobDetails.jobType');
  if (typeof isPipeline === 'boolean') out.fact('jobDetails.isPipeline');
  const technical = name !== type ? ` (${inlineCode(type)})` : '';
  const script = typeof ci.jobDetails?.configXml === 'string' ? /<scriptPath>([^<]{1,300})<\/scriptPath>/.exec(ci.jobDetails.configXml)?.[1] : undefined;
  if (/\bjenkinsfile\b/.test(q) && script) {
    out.fact('jobDetails.configXml');
    out.line(`${jobRef} is a **${name}** whose Jenkinsfile is ${inlineCode(script.trim())} in its repository (config.xml's \`scriptPath\`).`);
    return out.reply();
  }
  const asked = /\b(?:is|was) (?:this|it|the job) an? (pipeline|freestyle|free-style|multibranch|multi-branch|maven|matrix)\b/.exec(q);
  if (asked?.[1]) {
    const wanted = jobTypeName(asked[1]);
    out.line(wanted === name ? `**Yes — ${jobRef} is a ${name}**${technical}.` : `**No — ${jobRef} is a ${name}**${technical}, not a ${wanted}.`);
  } else {
    out.line(`${jobRef} is a **${name}**${technical}.`);
  }
  return out.reply();
};

export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function blockquote(text: string): string {
  return text
    .split('\n')
    .map((l) => `> ${l}`.trimEnd())
    .join('\n');
}

const jobDescription: Composer = ({ ci }) => {
  const description = ci.jobDetails?.description;
  const job = jobNameOf(ci);
  const jobRef = job ? inlineCode(job) : 'The job';
  if (typeof description !== 'string') {
    // No description: the job's name and type are the nearest thing to "what is this job".
    const type = typeof ci.jobDetails?.jobType === 'string' ? jobTypeName(ci.jobDetails.jobType) : undefined;
    if (!job) return notSaid("what the job's description is");
    const reply = notSaid(`what ${inlineCode(job)} is for (it holds no job description)`, `It is the job ${inlineCode(job)}${type ? `, a ${type}` : ''}.`);
    reply.sources.push({ kind: 'context', field: 'jobDetails.fullName' });
    if (type) reply.sources.push({ kind: 'context', field: 'jobDetails.jobType' });
    return reply;
  }
  const out = new ReplyBuilder().fact('jobDetails.description');
  const text = plainText(description);
  if (!text) return out.line(`${jobRef} has **no description**.`).reply();
  out.line(`${jobRef} is described as:`);
  out.line();
  out.line(blockquote(text));
  return out.reply();
};

const buildable: Composer = ({ ci, q }) => {
  const value = ci.jobDetails?.isBuildable;
  const job = jobNameOf(ci);
  const jobRef = job ? inlineCode(job) : 'the job';
  if (typeof value !== 'boolean') return notSaid(`whether ${jobRef} is buildable`);
  // "is it disabled?" asks the opposite question: its yes is the job's no.
  if (/\bdisabled\b/.test(q) && !/\bbuildable\b/.test(q)) {
    return new ReplyBuilder()
      .fact('jobDetails.isBuildable')
      .line(value ? `**No — ${jobRef} is not disabled**: it is buildable.` : `**Yes — ${jobRef} cannot be built**: it is disabled, or its type cannot be built directly.`)
      .reply();
  }
  return new ReplyBuilder()
    .fact('jobDetails.isBuildable')
    .line(value ? `**Yes — ${jobRef} is buildable.**` : `**No — ${jobRef} is not buildable** (it is disabled, or its type cannot be built directly).`)
    .reply();
};

export const jobAnswers: AnswerGroup = { name: 'job', composers: { jobType, jobDescription, buildable } };
