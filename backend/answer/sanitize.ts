/**
 * The CiContext the engines read. Its shape is the codec's (protocol/ciContext.ts
 * `normaliseCiContext`: canonical names, every known field of its declared type or absent, so no
 * answer shows "undefined" or throws on odd input); stored contexts are canonical already
 * (migration 011), and a caller that hands an engine its own context gets the same reading.
 * What is left here is not shape but what the answers make of it.
 */
import { normaliseCiContext } from '../../protocol/schemas.js';
import type { CiContext } from '../../protocol/types.js';

/** The canonical context, without an earlier build that does not say which one it was (it tells nothing). */
export function saneCiContext(raw: unknown): CiContext {
  const ci: CiContext = normaliseCiContext(raw);
  const build = ci.buildDetails;
  if (build?.previousBuild && build.previousBuild.number === undefined) delete build.previousBuild;
  // A passing log sent without its number (`--baseline-log`) still ranked the excerpts: keep it.
  const last = build?.lastSuccessfulBuild;
  if (build && last && last.number === undefined && last.comparedLogLines === undefined) delete build.lastSuccessfulBuild;
  return ci;
}
