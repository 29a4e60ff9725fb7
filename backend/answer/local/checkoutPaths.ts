/**
 * The path a user can open for a path the log wrote on the CI agent (issue 25 item 4, session 51, helper ws1): the
 * log says `/var/jenkins_home/workspace/php-shop/src/Pricing/Cart.php:28`, the workspace snippets of the context
 * (`ask --workspace DIR`, `--from-env`, the controller's read of the build's workspace) hold the same file as
 * `src/Pricing/Cart.php`. Every sentence that tells the user where to look takes the place from the finding
 * (`findingFor`) or from the log's places (`whereInTheCode`), and both go through here: one mechanism, not one per
 * sentence. The log's own text (a quoted message, the excerpt) keeps the agent's path, and citations still point at it.
 *
 * An agent path maps when it lies under an agent root that the context shows maps to the checkout: a root the log
 * names (`Running on X in /x/y`, `Building in workspace /x/y`) once the context holds a snippet read from a workspace;
 * the part of the path a log line names before the workspace path of the snippet read for that line (`logLine`); or
 * the part of an absolute path the excerpts print before a snippet's workspace path with a folder (`/x/y` +
 * `src/a.php`; a bare `a.php` of no known line is too weak to tell the root by).
 */
import { JENKINS_ROOT_LINE } from '../../../core/log/agentRoot.js';
import type { Finding, FindingFrame, FindingLocation, WorkspaceSnippet } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { linesOf, storedLogSpan } from '../logtext.js';

const ABSOLUTE = /^(?:\/|[A-Za-z]:\/)/;
/** An absolute path printed in a log line (POSIX or Windows), as far as path characters go. */
const PRINTED_PATH = /(?:[A-Za-z]:[\\/]|\/)(?:[\w.@+~-]+[\\/])+[\w.@+~-]+/g;

const slashes = (p: string): string => p.replace(/\\/g, '/');

/** The snippets read from a workspace (not the inline pipeline script of the job's configuration). */
function workspaceSnippets(ctx: ChatContext): WorkspaceSnippet[] {
  const raw = ctx.ciContext.workspaceSnippets;
  if (!Array.isArray(raw)) return [];
  return raw.filter((s: unknown): s is WorkspaceSnippet => typeof s === 'object' && s !== null && typeof (s as WorkspaceSnippet).path === 'string' && (s as WorkspaceSnippet).workspaceId !== 'job-config');
}

const ROOTS = new WeakMap<ChatContext, string[]>();

/** The agent roots that map to the checkout, longest first (cached per context: an answer asks for them many times). */
function rootsOf(ctx: ChatContext): string[] {
  const cached = ROOTS.get(ctx);
  if (cached) return cached;
  const roots = new Set<string>();
  const snippets = workspaceSnippets(ctx);
  const stored = snippets.length > 0 ? storedLogSpan(ctx) : undefined;
  if (stored) {
    // The first lines carry Jenkins' `Running on ... in`; a pipeline's later `ws` steps come as they run (bounded scan).
    for (const line of linesOf(stored, stored.start_line, Math.min(stored.end_line, stored.start_line + 20_000))?.text.split('\n') ?? []) {
      const m = JENKINS_ROOT_LINE.exec(line);
      if (m?.[1]) roots.add(slashes(m[1]).replace(/\/+$/, ''));
    }
    // A snippet the reader found for the path a log line names (its `logLine`): that path less the snippet's is a root,
    // even for a file at the checkout's top (`/ws/job/build.xml:12` and `build.xml`).
    for (const s of snippets) {
      const rel = slashes(s.path).replace(/^\.\//, '');
      if (typeof s.logLine !== 'number' || typeof s.line !== 'number') continue;
      const said = linesOf(stored, s.logLine, s.logLine)?.text ?? '';
      for (const m of said.matchAll(PRINTED_PATH)) {
        const p = slashes(m[0]);
        if (p.endsWith(`/${rel}`)) roots.add(p.slice(0, p.length - rel.length - 1));
      }
    }
  }
  if (snippets.length > 0) {
    // An absolute path the excerpts print that ends with a snippet's workspace path with a folder (`/x/y` + `src/a.php`).
    const printed = ctx.failureExcerpts.slice(0, 5).flatMap((e) => [...e.text.matchAll(PRINTED_PATH)].map((m) => slashes(m[0])));
    for (const s of snippets) {
      const rel = slashes(s.path).replace(/^\.\//, '');
      if (!rel.includes('/')) continue;
      for (const p of printed) if (p.endsWith(`/${rel}`)) roots.add(p.slice(0, p.length - rel.length - 1));
    }
  }
  const out = [...roots].filter((r) => ABSOLUTE.test(r) && r.length > 1).sort((a, b) => b.length - a.length);
  ROOTS.set(ctx, out);
  return out;
}

/**
 * The path as the user's checkout names it: a path the log wrote under an agent root that maps to the checkout,
 * made relative to it (`/var/jenkins_home/workspace/php-shop/src/Pricing/Cart.php` -> `src/Pricing/Cart.php`); any
 * other path as given.
 */
export function checkoutPathOf(ctx: ChatContext, file: string): string {
  const p = slashes(file);
  if (!ABSOLUTE.test(p)) return file;
  for (const root of rootsOf(ctx)) if (p.startsWith(`${root}/`) && p.length > root.length + 1) return p.slice(root.length + 1);
  // A path that is exactly a snippet's workspace path below some folder (no root line in the log, a bare-named root).
  const hit = workspaceSnippets(ctx).find((s) => slashes(s.path).includes('/') && p.endsWith(`/${slashes(s.path)}`));
  return hit ? slashes(hit.path) : file;
}

function mapFrame(ctx: ChatContext, frame: FindingFrame | undefined): FindingFrame | undefined {
  if (!frame) return frame;
  const file = checkoutPathOf(ctx, frame.file);
  return file === frame.file ? frame : { ...frame, file };
}

/** The finding with its places (location and frames) named as the checkout names them; the same object when none changes. */
export function withCheckoutPaths(ctx: ChatContext, f: Finding): Finding {
  const loc = f.location;
  if (!loc || workspaceSnippets(ctx).length === 0) return f;
  const file = checkoutPathOf(ctx, loc.file);
  const raise = mapFrame(ctx, loc.frames?.raise);
  const project = mapFrame(ctx, loc.frames?.project);
  if (file === loc.file && raise === loc.frames?.raise && project === loc.frames?.project) return f;
  const frames = loc.frames ? { ...(raise ? { raise } : {}), ...(project ? { project } : {}) } : undefined;
  const location: FindingLocation = { ...loc, file, ...(frames ? { frames } : {}) };
  return { ...f, location };
}
