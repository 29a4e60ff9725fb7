/**
 * The `openai` engine's tools (issue 17): `list_workspace` and `read_workspace_file`, executed
 * by the controller for the chat's user on the chat's job and build (a tool token, see
 * protocol/toolToken.ts), and `search_log` over the chat's stored log (the same masked lines
 * and line numbers the answer cites). At most `maxCalls` calls and `tokenBudget` tokens of tool
 * results per answer; every call is recorded in the answer's sources, refused ones too.
 */
import type { Source } from '../../protocol/types.js';
import { signToolToken, TOOLS_PATH } from '../../protocol/toolToken.js';
import type { ChatContext } from './engine.js';
import { storedLogSpan } from './logtext.js';
import { estimateTokens } from './prompt.js';

export interface ToolSettings {
  /** The controller, e.g. `http://127.0.0.1:8080` (CONTROLLER_URL). */
  controllerUrl: string;
  /** JWT_SECRET, shared with the controller. */
  jwtSecret: string;
  /** Tool calls per answer (LLM_TOOL_CALLS); 0 turns the tools off. */
  maxCalls: number;
  /** Tokens of tool results per answer (LLM_TOOL_TOKENS). */
  tokenBudget: number;
  /** One call's time limit. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** An OpenAI `tools` entry. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A function tool whose arguments are one object of `properties` (nothing else allowed). */
function functionTool(name: string, description: string, properties: Record<string, unknown>, required: string[] = []): ToolDefinition {
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    },
  };
}

const LIST = functionTool(
  'list_workspace',
  "Lists files and directories of the failed build's workspace (paths relative to the workspace root, with sizes).",
  {
    path: { type: 'string', description: 'A directory relative to the workspace root; the root when absent.' },
    depth: { type: 'integer', minimum: 1, maximum: 6, description: 'Levels listed below the directory (default 3).' },
  },
);

const READ = functionTool(
  'read_workspace_file',
  "Reads lines of a text file of the failed build's workspace, with line numbers (at most 400 lines per call).",
  {
    path: { type: 'string', description: 'The file, relative to the workspace root, e.g. src/main/java/App.java.' },
    startLine: { type: 'integer', minimum: 1, description: 'First line (default 1).' },
    endLine: { type: 'integer', minimum: 1, description: 'Last line (default startLine + 399).' },
    workspaceId: { type: 'string', description: 'A workspace id from list_workspace, when the build has several.' },
  },
  ['path'],
);

const SEARCH = functionTool(
  'search_log',
  'Finds the lines of the build log containing a text (case-insensitive), with their line numbers for citations.',
  {
    text: { type: 'string', description: 'The text to look for, e.g. an exception name or a file name.' },
    maxResults: { type: 'integer', minimum: 1, maximum: 30, description: 'Lines returned at most (default 10).' },
  },
  ['text'],
);

/** What one answer's tool calls may use, and what they have used. */
export class ToolSession {
  readonly sources: Source[] = [];
  private calls = 0;
  private tokens = 0;

  constructor(
    private readonly settings: ToolSettings,
    private readonly target: { userId: string; job?: string; build?: number; chatId?: number } | undefined,
    private readonly context: ChatContext | null,
  ) {}

  /** The tools offered now: none once the calls or the budget are spent. */
  definitions(): ToolDefinition[] {
    if (!this.canCall()) return [];
    const tools: ToolDefinition[] = [];
    if (this.target?.job !== undefined && this.target.build !== undefined) tools.push(LIST, READ);
    if (this.context && storedLogSpan(this.context)) tools.push(SEARCH);
    return tools;
  }

  canCall(): boolean {
    return this.calls < this.settings.maxCalls && this.tokens < this.settings.tokenBudget;
  }

  /** A line for the system prompt saying what the tools are for and their limits. */
  describe(): string {
    return `You may call the tools ${this.definitions().map((d) => d.function.name).join(', ')} to read the build's workspace and log (at most ${this.settings.maxCalls} calls in all). Quote what you read with its file and line (\`src/App.java:42\`); never guess a file's content.`;
  }

  /** Runs one call and answers the text the model gets back; never throws (a refusal is a text too). */
  async run(name: string, rawArgs: string, signal: AbortSignal): Promise<string> {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
    } catch {
      return this.record(name, rawArgs, false, 'Error: the arguments are not valid JSON.');
    }
    const input = JSON.stringify(args).slice(0, 500);
    if (!this.canCall()) return this.record(name, input, false, 'Refused: the tool-call limit of this answer is reached. Answer with what you have.');
    this.calls++;
    try {
      if (name === 'search_log') return this.record(name, input, true, this.cut(this.searchLog(args)));
      if (name !== 'list_workspace' && name !== 'read_workspace_file') return this.record(name, input, false, `Error: there is no tool ${name}.`);
      if (!this.target || this.target.job === undefined || this.target.build === undefined) {
        return this.record(name, input, false, 'Refused: the chat names no job and build, so there is no workspace to read.');
      }
      const answer = await this.callController(name, args, signal);
      if (!answer.ok) return this.record(name, input, false, `Refused: ${answer.detail}`);
      const body = answer.body;
      const text = this.cut(typeof body.content === 'string' ? body.content : '');
      if (name === 'read_workspace_file' && typeof body.path === 'string' && typeof body.startLine === 'number' && typeof body.endLine === 'number') {
        this.sources.push({ kind: 'file', path: body.path, start_line: body.startLine, end_line: body.endLine });
        const where = `${body.path} lines ${body.startLine}-${body.endLine}${typeof body.totalLines === 'number' ? ` of ${body.totalLines}` : ''} (workspace ${String(body.workspaceId)})`;
        return this.record(name, input, true, `${where}:\n${text}`);
      }
      return this.record(name, input, true, text);
    } catch (err) {
      if (signal.aborted) throw err;
      return this.record(name, input, false, `Error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private record(name: string, input: string, ok: boolean, text: string): string {
    this.sources.push({ kind: 'tool', name, input, ok });
    this.tokens += estimateTokens(text);
    return text;
  }

  /** Keeps a result within what is left of the budget. */
  private cut(text: string): string {
    const left = this.settings.tokenBudget - this.tokens;
    if (estimateTokens(text) <= left) return text;
    const lines = text.split('\n');
    const kept: string[] = [];
    let used = 0;
    for (const line of lines) {
      const cost = estimateTokens(line) + 1;
      if (used + cost > left - 20) break;
      kept.push(line);
      used += cost;
    }
    return `${kept.join('\n')}\n[cut: the tool budget of this answer (${this.settings.tokenBudget} tokens) is spent]`;
  }

  private searchLog(args: Record<string, unknown>): string {
    const text = typeof args.text === 'string' ? args.text : typeof args.query === 'string' ? args.query : '';
    if (text.trim() === '') return 'Error: give the text to look for.';
    const max = typeof args.maxResults === 'number' && args.maxResults >= 1 ? Math.min(30, Math.floor(args.maxResults)) : 10;
    const span = this.context ? storedLogSpan(this.context) : undefined;
    if (!span) return 'The chat holds no build log.';
    const needle = text.toLowerCase();
    const hits: string[] = [];
    const lines = span.text.split('\n');
    let total = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (!line.toLowerCase().includes(needle)) continue;
      total++;
      if (hits.length < max) {
        const n = span.start_line + i;
        hits.push(`L${n}: ${line.length > 300 ? `${line.slice(0, 299)}…` : line}`);
        this.sources.push({ kind: 'log', start_line: n, end_line: n });
      }
    }
    if (total === 0) return `No line of the log (lines ${span.start_line}-${span.end_line}) contains "${text}".`;
    return `${total} line${total === 1 ? '' : 's'} contain "${text}"${total > hits.length ? ` (first ${hits.length} shown)` : ''}:\n${hits.join('\n')}`;
  }

  private async callController(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; detail: string }> {
    const target = this.target as { userId: string; job: string; build: number; chatId?: number };
    const token = await signToolToken(this.settings.jwtSecret, { sub: target.userId, job: target.job, build: target.build, ...(target.chatId !== undefined ? { chat: target.chatId } : {}) });
    const timeout = AbortSignal.timeout(this.settings.timeoutMs ?? 10_000);
    const res = await (this.settings.fetch ?? fetch)(`${this.settings.controllerUrl.replace(/\/+$/, '')}${TOOLS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: name, arguments: args }),
      signal: AbortSignal.any([signal, timeout]),
    });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) return { ok: false, detail: typeof body.detail === 'string' ? body.detail : `the controller answered ${res.status}` };
    return { ok: true, body };
  }
}

/** The tool session of one answer; undefined when the tools are off. */
export function toolSessionFor(settings: ToolSettings | undefined, request: { userId?: string; chatId?: number; context: ChatContext | null }): ToolSession | undefined {
  if (!settings || settings.maxCalls <= 0) return undefined;
  const ci = request.context?.ciContext;
  const job = typeof ci?.jobDetails?.fullName === 'string' ? ci.jobDetails.fullName : undefined;
  const build = typeof ci?.buildDetails?.number === 'number' ? ci.buildDetails.number : undefined;
  const target = request.userId !== undefined ? { userId: request.userId, ...(job !== undefined ? { job } : {}), ...(build !== undefined ? { build } : {}), ...(request.chatId !== undefined ? { chatId: request.chatId } : {}) } : undefined;
  const session = new ToolSession(settings, target, request.context);
  return session.definitions().length > 0 ? session : undefined;
}
