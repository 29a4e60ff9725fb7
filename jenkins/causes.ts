/**
 * Why a build ran: the causes of its CauseAction (build.xml), in either shape Jenkins wrote
 * them, with user names from `users/`. Moved out of builds.ts (issue 31: no file over 700 lines).
 */
import path from 'node:path';
import type { BuildCause } from '../protocol/types.js';
import { child, childInt, childText, childrenNamed, readXmlFile, simpleClassName, xstreamClassName } from './xml.js';
import type { XmlElement } from './xml.js';

/** Looks up a user's full name in `users/` (users.xml id map, or the old `users/<id>/`). */
async function userFullName(jenkinsHome: string, userId: string): Promise<string | undefined> {
  const usersDir = path.join(jenkinsHome, 'users');
  let dirName: string | undefined;
  try {
    const map = await readXmlFile(path.join(usersDir, 'users.xml'));
    for (const entry of childrenNamed(child(map, 'idToDirectoryNameMap'), 'entry')) {
      const strings = childrenNamed(entry, 'string').map((s) => s.text.trim());
      if (strings[0] === userId) dirName = strings[1];
    }
  } catch {
    /* no map: the old layout */
  }
  const candidates = dirName ? [dirName] : [userId];
  for (const d of candidates) {
    if (d.includes('/') || d.includes('\\') || d === '..' || d === '.') continue;
    try {
      const user = await readXmlFile(path.join(usersDir, d, 'config.xml'));
      const name = childText(user, 'fullName');
      if (name) return name;
    } catch {
      /* unreadable user record: fall back to the id */
    }
  }
  return undefined;
}

/** The cause elements of a CauseAction in either shape, each with how many times it occurred. */
function causeElements(action: XmlElement): { el: XmlElement; count: number }[] {
  const bag = child(action, 'causeBag');
  if (bag) {
    const out: { el: XmlElement; count: number }[] = [];
    for (const entry of childrenNamed(bag, 'entry')) {
      const [causeEl, countEl] = entry.children;
      if (!causeEl) continue;
      const count = countEl && /^\d+$/.test(countEl.text.trim()) ? Number(countEl.text.trim()) : 1;
      out.push({ el: causeEl, count });
    }
    return out;
  }
  const old = child(action, 'causes');
  if (old) return old.children.map((el) => ({ el, count: 1 }));
  // Single-cause form of the earliest cores: <cause class="...">.
  return childrenNamed(action, 'cause').map((el) => ({ el, count: 1 }));
}

async function describeCause(jenkinsHome: string, el: XmlElement): Promise<BuildCause> {
  const cls = el.attrs['class'] ?? xstreamClassName(el.name);
  const simple = simpleClassName(el.attrs['class'] ?? el.name);
  const cause: BuildCause = { shortDescription: '', class: cls };
  switch (simple) {
    case 'UserIdCause': {
      const userId = childText(el, 'userId');
      if (userId) {
        cause.userId = userId;
        cause.userName = (await userFullName(jenkinsHome, userId)) ?? userId;
      }
      cause.shortDescription = `Started by user ${cause.userName ?? 'anonymous'}`;
      break;
    }
    case 'UserCause': {
      const user = childText(el, 'authenticationName') ?? 'anonymous';
      cause.userId = user;
      cause.userName = user;
      cause.shortDescription = `Started by user ${user}`;
      break;
    }
    case 'UpstreamCause':
    default: {
      const upstreamProject = childText(el, 'upstreamProject');
      if (upstreamProject) {
        const upstreamBuild = childInt(el, 'upstreamBuild');
        cause.upstreamProject = upstreamProject;
        if (upstreamBuild !== undefined) cause.upstreamBuild = upstreamBuild;
        const upstreamCauses = child(el, 'upstreamCauses');
        if (upstreamCauses && upstreamCauses.children.length > 0) {
          cause.upstreamCauses = await Promise.all(upstreamCauses.children.map((c) => describeCause(jenkinsHome, c)));
        }
        cause.shortDescription = `Started by upstream project "${upstreamProject}" build number ${upstreamBuild ?? '?'}`;
        break;
      }
      cause.shortDescription = genericCauseDescription(simple, el);
    }
  }
  return cause;
}

function genericCauseDescription(simple: string, el: XmlElement): string {
  switch (simple) {
    case 'SCMTriggerCause':
      return 'Started by an SCM change';
    case 'TimerTriggerCause':
      return 'Started by timer';
    case 'RemoteCause': {
      const addr = childText(el, 'addr') ?? 'unknown';
      const note = childText(el, 'note');
      return note ? `Started by remote host ${addr} with note: ${note}` : `Started by remote host ${addr}`;
    }
    case 'BranchIndexingCause':
      return 'Branch indexing';
    case 'BranchEventCause':
      return childText(el, 'description') ?? 'Branch event';
    case 'ReplayCause':
      return `Replayed #${childText(el, 'originalNumber') ?? '?'}`;
    case 'RebuildCause':
      return 'Rebuilt';
    case 'GitHubPushCause': {
      const who = childText(el, 'pushedBy');
      return who ? `Started by GitHub push by ${who}` : 'Started by GitHub push';
    }
    case 'CLICause':
      return `Started from command line by ${childText(el, 'startedBy') ?? 'anonymous'}`;
    default: {
      const text = childText(el, 'shortDescription') ?? childText(el, 'note');
      if (text) return text;
      const words = simple.replace(/Cause$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').trim();
      return words ? `Started by ${words.toLowerCase()}` : 'Started';
    }
  }
}

/** All causes of a build, whichever shape its CauseAction was written in. */
export async function readCauses(jenkinsHome: string, build: XmlElement): Promise<BuildCause[]> {
  const causes: BuildCause[] = [];
  for (const action of childrenNamed(child(build, 'actions'), 'hudson.model.CauseAction')) {
    for (const { el, count } of causeElements(action)) {
      const cause = await describeCause(jenkinsHome, el);
      if (count > 1) cause.count = count;
      causes.push(cause);
    }
  }
  return causes;
}
