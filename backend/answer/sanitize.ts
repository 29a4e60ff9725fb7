/**
 * A CiContext as the engines may trust it. The uploaded object is kept as sent (unknown fields
 * and all), and contexts stored before the canonical names use the older aliases, so a field can
 * hold anything. The engines read this copy: the canonical form of CONTRACT section 2
 * (protocol/schemas.ts `normaliseCiContext`), in which every known field has its declared type or
 * is absent, so no answer ever shows "undefined" or throws on odd input.
 */
import { normaliseCiContext } from '../../protocol/schemas.js';
import type { BuildSummary, CiContext } from '../../protocol/types.js';

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keeps `keys` of `o` only when they are strings. */
function strings(o: Dict | undefined, keys: string[]): void {
  if (!o) return;
  for (const key of keys) if (key in o && typeof o[key] !== 'string') delete o[key];
}

function cleanBuild(b: BuildSummary | null | undefined): void {
  if (!isDict(b)) return;
  strings(b, ['result', 'builtOnNode', 'consoleLog', 'consoleLogTail']);
  if (typeof b.duration !== 'number') delete b.duration;
  if (Array.isArray(b.changes)) {
    for (const c of b.changes) strings(c, ['commitId', 'author', 'message']);
  }
  if (Array.isArray(b.causes)) {
    for (const c of b.causes) {
      strings(c, ['userId', 'userName']);
      if (typeof c.shortDescription !== 'string') c.shortDescription = '';
    }
  }
}

/** The canonical context with every known field of its declared type (or absent); unknown fields kept. */
export function saneCiContext(raw: unknown): CiContext {
  const ci = normaliseCiContext(raw);
  strings(ci.jobDetails, ['name', 'fullName', 'jobType', 'url', 'description', 'configXml']);
  for (const key of ['isBuildable', 'inQueue', 'isPipeline', 'concurrentBuild'] as const) {
    if (ci.jobDetails && key in ci.jobDetails && typeof ci.jobDetails[key] !== 'boolean') delete ci.jobDetails[key];
  }
  cleanBuild(ci.buildDetails);
  // An earlier build that does not say which one it was tells nothing.
  for (const key of ['previousBuild', 'lastSuccessfulBuild'] as const) {
    const b = ci.buildDetails?.[key];
    // A passing log sent without its number (`--baseline-log`) still ranked the excerpts: keep it.
    const compared = key === 'lastSuccessfulBuild' && typeof (b as { comparedLogLines?: unknown } | null | undefined)?.comparedLogLines === 'number';
    if (b && typeof b.number !== 'number' && !compared) delete ci.buildDetails?.[key];
  }
  cleanBuild(ci.buildDetails?.previousBuild);
  cleanBuild(ci.buildDetails?.lastSuccessfulBuild);
  if (ci.agentStats?.agents) {
    for (const a of ci.agentStats.agents) {
      strings(a, ['offlineReason']);
      if ('labels' in a && !(Array.isArray(a.labels) && a.labels.every((l) => typeof l === 'string'))) delete a.labels;
    }
  }
  return ci;
}
