/** The offline engine's reply pieces: what a composer returns, the builder, shared wording. */
import type { CiContext, Source } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { type IntentId } from '../intents.js';

/** One part of an answer: Markdown text and what it rests on. */
export interface Reply {
  text: string;
  sources: Source[];
}

/** A question being answered against a context. */
export interface Ask {
  question: string;
  /** Normalised (lower case, contractions expanded) for cue matching. */
  q: string;
  ctx: ChatContext;
  ci: CiContext;
}

export type Composer = (ask: Ask) => Reply | Promise<Reply>;

/** Collects an answer's lines and sources; sources are deduplicated when the reply is made. */
export class ReplyBuilder {
  private readonly lines: string[] = [];
  private readonly sources: Source[] = [];

  line(text = ''): this {
    this.lines.push(text);
    return this;
  }

  /** How many lines are written so far (the index the next `line` gets). */
  get size(): number {
    return this.lines.length;
  }

  /** Rewrites line `index` (as `line` wrote it); `undefined` takes it out. */
  rewrite(index: number, text: string | undefined): this {
    if (text === undefined) this.lines.splice(index, 1);
    else this.lines[index] = text;
    return this;
  }

  fact(...fields: string[]): this {
    for (const field of fields) this.sources.push({ kind: 'context', field });
    return this;
  }

  log(span: { start_line: number; end_line: number }): this {
    this.sources.push({ kind: 'log', start_line: span.start_line, end_line: span.end_line });
    return this;
  }

  /** Any source, e.g. a workspace file `{kind: 'file', path, start_line, end_line}`. */
  source(source: Source): this {
    this.sources.push(source);
    return this;
  }

  reply(): Reply {
    return { text: tidyPeriods(this.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim()), sources: this.sources };
  }
}

/**
 * Sentence glue outside fenced blocks: a quoted message that ends a sentence with its own stop
 * (`` `make: *** ... Stop.` ``) takes no second period after its closing backtick.
 */
export function tidyPeriods(text: string): string {
  return text
    .split(/(^```[\s\S]*?^```)/m)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([.!?])(`+)\.(?=\s|$)/g, '$1$2')))
    .join('');
}

export function notSaid(subject: string, extra?: string): Reply {
  return { text: `The uploaded context does not say ${subject}.${extra ? `\n\n${extra}` : ''}`, sources: [] };
}

export const UPLOAD_HOWTO = [
  '**To upload it:**',
  '- Name the build: `cichat context upload <chat-id> --job JOB --build N`. The controller reads that build (facts, console log, last green build) from its JENKINS_HOME itself and injects it; it does the same for any context request naming a job, or sent from a Jenkins page (the job and build come from the page address).',
  '- From a pipeline or a shell: `cichat context upload <chat-id> --log build.log` (add `--job JOB --build N`, or `--from-env` inside a Jenkins build)',
  '- Or pipe a log straight into a question: `cat build.log | cichat ask "why did the build fail?"`',
].join('\n');

/** The log sources of the citations in `text`. */
export function citedSpans(text: string): { kind: 'log'; start_line: number; end_line: number }[] {
  return [...text.matchAll(/\[L(\d+)-L(\d+)\]/g)].map((m) => ({ kind: 'log' as const, start_line: Number(m[1]), end_line: Number(m[2]) }));
}

export function dedupeSources(sources: Source[]): Source[] {
  const seen = new Set<string>();
  return sources.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Answers a question from the context without a model. Exported for tests and for tools that
 * want the whole answer at once (the engine streams the same text).

/**
 * A group of answers: the composers of the intents it answers. The engine's dispatch is the
 * list of groups in `index.ts`; a new group is a module plus one line there.
 */
export interface AnswerGroup {
  name: string;
  composers: Partial<Record<IntentId, Composer>>;
}
