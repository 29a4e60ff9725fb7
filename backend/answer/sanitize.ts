/**
 * A CiContext as the engines may trust it. The uploaded object is kept as sent (unknown fields
 * and all), so a field can hold anything: a plugin list with nulls, a number as a string. The
 * engines read this cleaned copy, in which every known field has its declared type or is
 * absent, so no answer ever shows "undefined" or throws on odd input.
 */
import type { AgentStats, BuildCause, BuildDetails, CiContext, JobDetails, MasterNode, PluginInfo } from '../../protocol/types.js';

type Dict = Record<string, unknown>;

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
};
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const list = (v: unknown): Dict[] | undefined => (Array.isArray(v) ? v.filter(isDict) : undefined);

/** Drops the keys whose value is undefined, so `'x' in obj` and JSON agree with what is known. */
function defined<T extends Dict>(obj: T): T {
  for (const key of Object.keys(obj)) if (obj[key] === undefined) delete obj[key];
  return obj;
}

function plugins(v: unknown): PluginInfo[] | undefined {
  return list(v)
    ?.filter((p) => typeof p.shortName === 'string' && p.shortName.trim() !== '')
    .map((p) =>
      defined({
        shortName: p.shortName as string,
        longName: str(p.longName),
        version: str(p.version) ?? (num(p.version) !== undefined ? String(p.version) : '(version unknown)'),
        enabled: bool(p.enabled) ?? true,
      }),
    );
}

function masterNode(v: unknown): MasterNode | undefined {
  if (!isDict(v)) return undefined;
  return defined({ executors: num(v.executors), isOnline: bool(v.isOnline), systemInfo: isDict(v.systemInfo) ? v.systemInfo : undefined });
}

function agentStats(v: unknown): AgentStats | undefined {
  if (!isDict(v)) return undefined;
  const agents = list(v.agents)
    ?.filter((a) => typeof a.name === 'string')
    .map((a) =>
      defined({ name: a.name as string, online: bool(a.online) ?? false, executors: num(a.executors), offlineReason: str(a.offlineReason) }),
    );
  return defined({ onlineAgents: num(v.onlineAgents), offlineAgents: num(v.offlineAgents), agents });
}

function jobDetails(v: unknown): JobDetails | undefined {
  if (!isDict(v)) return undefined;
  return defined({
    name: str(v.name),
    fullName: str(v.fullName),
    type: str(v.type),
    buildable: bool(v.buildable),
    description: str(v.description),
    nextBuildNumber: num(v.nextBuildNumber),
  });
}

function causes(v: unknown): BuildCause[] | undefined {
  return list(v)?.map((c) =>
    defined({ shortDescription: str(c.shortDescription) ?? '', userId: str(c.userId), userName: str(c.userName) }),
  );
}

function buildDetails(v: unknown): BuildDetails | undefined {
  if (!isDict(v)) return undefined;
  const previous = v.previousBuild;
  const previousBuild =
    previous === null
      ? null
      : isDict(previous) && num(previous.number) !== undefined
        ? defined({ number: num(previous.number) as number, result: str(previous.result), durationMs: num(previous.durationMs) })
        : undefined;
  const green = v.lastSuccessfulBuild;
  const lastSuccessfulBuild =
    green === null
      ? null
      : isDict(green)
        ? defined({
            number: num(green.number),
            result: str(green.result),
            timestamp: str(green.timestamp),
            comparedLogLines: num(green.comparedLogLines),
            changesSince: list(green.changesSince)?.map((c) =>
              defined({ commitId: str(c.commitId), author: str(c.author), message: str(c.message), build: num(c.build) }),
            ),
          })
        : undefined;
  const tests = isDict(v.tests)
    ? defined({
        total: num(v.tests.total),
        failed: num(v.tests.failed),
        skipped: num(v.tests.skipped),
        passed: num(v.tests.passed),
        failedTests: Array.isArray(v.tests.failedTests) ? v.tests.failedTests : undefined,
      })
    : undefined;
  const timestamp = str(v.timestamp) ?? (num(v.timestamp) !== undefined ? new Date(num(v.timestamp) as number).toISOString() : undefined);
  return defined({
    number: num(v.number),
    result: str(v.result),
    building: bool(v.building),
    durationMs: num(v.durationMs),
    timestamp,
    causes: causes(v.causes),
    parameters: list(v.parameters)
      ?.filter((p) => typeof p.name === 'string')
      .map((p) => ({ name: p.name as string, value: p.value })),
    builtOn: str(v.builtOn),
    changes: list(v.changes)?.map((c) => defined({ commitId: str(c.commitId), author: str(c.author), message: str(c.message) })),
    previousBuild,
    lastSuccessfulBuild,
    noSuccessfulBuild: str(v.noSuccessfulBuild),
    tests,
    consoleLog: str(v.consoleLog),
    consoleLogTail: str(v.consoleLogTail),
  });
}

/** The context with every known field of its declared type (or absent); unknown fields kept. */
export function saneCiContext(raw: unknown): CiContext {
  if (!isDict(raw)) return {};
  return defined({
    ...raw,
    currentScreen: str(raw.currentScreen),
    ciVersion: str(raw.ciVersion),
    jenkinsVersion: str(raw.jenkinsVersion),
    rootUrl: str(raw.rootUrl),
    systemMessage: str(raw.systemMessage),
    activePlugins: plugins(raw.activePlugins),
    masterNode: masterNode(raw.masterNode),
    agentStats: agentStats(raw.agentStats),
    jobDetails: jobDetails(raw.jobDetails),
    buildDetails: buildDetails(raw.buildDetails),
  });
}
