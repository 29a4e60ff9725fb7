/**
 * What went into a build: its change logs (git whatchanged text, XML change logs) and its SCM
 * revisions (build.xml's BuildData, pruned git data). Moved out of builds.ts (issue 31).
 */
import path from 'node:path';
import { readdir, stat } from 'node:fs/promises';
import { maskSecrets } from '../core/secrets.js';
import type { BuildDetails } from '../protocol/types.js';
import { child, childInt, childText, childrenNamed, findDeep, parseXml, readHeadText } from './xml.js';
import type { XmlElement } from './xml.js';


/** Changes per build read, at most. */
export const CHANGES_MAX = 50;
/** How much of a change log is read. */
const CHANGELOG_MAX_BYTES = 4 * 1024 * 1024;

export type Change = NonNullable<BuildDetails['changes']>[number];

/**
 * Parses the raw text the git plugin stores as changelog.xml (`git whatchanged` output):
 * `commit <sha>`, `author Name <mail> <epoch> <tz>`, an indented message, `:<modes> <path>`.
 */
export function parseGitWhatchanged(text: string, max = CHANGES_MAX): Change[] {
  const changes: Change[] = [];
  let current: (Change & { files: string[]; lines: string[] }) | null = null;
  const flush = (): void => {
    if (!current) return;
    const { lines, files, ...rest } = current;
    const change: Change = { ...rest, message: lines.join('\n').trim() };
    if (files.length > 0) change.files = files.slice(0, 20);
    changes.push(change);
    current = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const commit = /^commit ([0-9a-f]{7,64})/.exec(line);
    if (commit?.[1]) {
      flush();
      if (changes.length >= max) break;
      current = { commitId: commit[1], files: [], lines: [] };
      continue;
    }
    if (!current) continue;
    const person = /^(author|committer) (.*?) <([^>]*)> (\d+)(?: ([+-]\d{4}))?$/.exec(line);
    if (person) {
      if (person[1] === 'author') {
        current.author = person[2];
        if (person[3]) current.authorEmail = person[3];
        current.timestamp = new Date(Number(person[4]) * 1000).toISOString();
      }
      continue;
    }
    if (line.startsWith('    ')) {
      current.lines.push(line.slice(4));
      continue;
    }
    const file = /^:\S+ \S+ \S+ \S+ (\S+)\t(.+)$/.exec(line);
    if (file?.[2]) {
      current.files.push(`${file[1]} ${file[2].replace(/\t/g, ' -> ')}`);
    }
  }
  flush();
  return changes.slice(0, max);
}

/** Changes recorded in an XML change log (Subversion, Mercurial, the mock SCM, and kin). */
function changesFromXml(root: XmlElement, max: number): Change[] {
  const out: Change[] = [];
  const entries = root.name === 'changelog' || root.name === 'log' || root.name === 'list' ? root.children : [root];
  for (const e of entries) {
    if (out.length >= max) break;
    const message = childText(e, 'msg') ?? childText(e, 'message') ?? childText(e, 'comment') ?? childText(e, 'comments');
    const commitId = childText(e, 'hash') ?? childText(e, 'commitId') ?? childText(e, 'node') ?? childText(e, 'id') ?? e.attrs['revision'] ?? e.attrs['node'];
    const author = childText(e, 'author') ?? childText(e, 'user') ?? e.attrs['author'];
    if (message === undefined && commitId === undefined && author === undefined) continue;
    const change: Change = {};
    if (commitId) change.commitId = commitId;
    if (author) change.author = author;
    if (message !== undefined) change.message = message;
    const ts = childText(e, 'date') ?? childText(e, 'timestamp');
    if (ts) change.timestamp = /^\d{10,13}$/.test(ts) ? new Date(Number(ts)).toISOString() : ts;
    out.push(change);
  }
  return out;
}

/** The changes of a build from `changelog.xml` and `changelog<N>.xml` (pipelines, one per checkout), at most 50. */
export async function readChanges(buildDir: string, max = CHANGES_MAX): Promise<Change[]> {
  let files: string[];
  try {
    files = (await readdir(buildDir)).filter((f) => /^changelog\d*\.xml$/.test(f)).sort();
  } catch {
    return [];
  }
  const changes: Change[] = [];
  for (const f of files) {
    if (changes.length >= max) break;
    let text: string;
    let cutShort: boolean;
    try {
      // Only the head of a huge change log: 50 changes never need more.
      cutShort = (await stat(path.join(buildDir, f))).size > CHANGELOG_MAX_BYTES;
      text = await readHeadText(path.join(buildDir, f), CHANGELOG_MAX_BYTES);
    } catch {
      continue;
    }
    const room = max - changes.length;
    // The git plugin writes raw `git whatchanged` text, sometimes after a `Changes in branch` line.
    if (/^commit [0-9a-f]{7,}/m.test(text) && !/^\s*</.test(text)) {
      changes.push(...parseGitWhatchanged(text, room));
      continue;
    }
    if (!/^\s*</.test(text) || cutShort) continue; // an XML log cut in the middle cannot be parsed
    try {
      changes.push(...changesFromXml(parseXml(text, f), room));
    } catch {
      /* a change log we cannot read is not worth failing the build details for */
    }
  }
  for (const c of changes) if (typeof c.message === 'string') c.message = maskSecrets(c.message.slice(0, 2000));
  return changes;
}

// ------------------------------------------------------------------------------------- scm

export interface ScmRevision {
  type: 'git';
  commit?: string;
  branch?: string;
  remoteUrls?: string[];
}

/** A URL without its user information (`https://user:token@host/` -> `https://host/`). */
function withoutCredentials(url: string): string {
  return maskSecrets(url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1'));
}

/**
 * What the git plugin recorded about this build (`hudson.plugins.git.util.BuildData`, one per
 * repository checked out): the commit and branch built (the `buildsByBranchName` entry whose
 * `hudsonBuildNumber` is this build, else the inline `lastBuild`) and the remote URLs,
 * credentials removed. A BuildData pruned from a huge build.xml gives its URLs only.
 */
export function readScm(build: XmlElement, number: number): ScmRevision[] {
  const out: ScmRevision[] = [];
  for (const data of childrenNamed(child(build, 'actions'), 'hudson.plugins.git.util.BuildData')) {
    const rev: ScmRevision = { type: 'git' };
    const sha1Of = (b: XmlElement | undefined): string | undefined => {
      const marked = child(b, 'marked') ?? child(b, 'revision');
      return childText(marked, 'sha1');
    };
    let found = false;
    for (const entry of childrenNamed(child(data, 'buildsByBranchName'), 'entry')) {
      const b = child(entry, 'hudson.plugins.git.util.Build');
      if (childInt(b, 'hudsonBuildNumber') !== number) continue;
      const sha = sha1Of(b);
      if (sha) rev.commit = sha;
      const branch = childText(entry, 'string');
      if (branch) rev.branch = branch;
      found = true;
    }
    if (!found) {
      const last = child(data, 'lastBuild');
      if (last && !last.attrs['reference']) {
        const sha = sha1Of(last);
        if (sha) rev.commit = sha;
        const branch = childText(findDeep(last, 'hudson.plugins.git.Branch') ?? last, 'name');
        if (branch) rev.branch = branch;
      }
    }
    const urls = childrenNamed(child(data, 'remoteUrls'), 'string').map((u) => withoutCredentials(u.text.trim())).filter((u) => u !== '');
    if (urls.length > 0) rev.remoteUrls = urls;
    if (rev.commit || rev.remoteUrls) out.push(rev);
  }
  return out;
}

/**
 * The git facts of BuildData actions too large to parse (pruned from a huge build.xml), found
 * by a linear scan of the raw text: each `<BuildData>` block's `buildsByBranchName` entry whose
 * `hudsonBuildNumber` is this build, and its `remoteUrls`.
 */
export function scanPrunedGitData(text: string, number: number): ScmRevision[] {
  const out: ScmRevision[] = [];
  const open = /<hudson\.plugins\.git\.util\.BuildData[\s>]/g;
  for (let m = open.exec(text); m !== null; m = open.exec(text)) {
    const end = text.indexOf('</hudson.plugins.git.util.BuildData>', m.index);
    if (end < 0) break;
    const block = text.slice(m.index, end);
    open.lastIndex = end;
    const rev: ScmRevision = { type: 'git' };
    const marker = `<hudsonBuildNumber>${number}</hudsonBuildNumber>`;
    const at = block.indexOf(marker);
    if (at >= 0) {
      const entryStart = block.lastIndexOf('<entry>', at);
      const entry = block.slice(entryStart, at);
      const branch = /<string>([^<]*)<\/string>/.exec(entry)?.[1];
      const sha = /<sha1>([0-9a-f]{7,64})<\/sha1>/.exec(entry)?.[1];
      if (sha) rev.commit = sha;
      if (branch) rev.branch = branch.trim();
    }
    const urls = /<remoteUrls>([\s\S]*?)<\/remoteUrls>/.exec(block)?.[1];
    if (urls) {
      const list = [...urls.matchAll(/<string>([^<]*)<\/string>/g)].map((u) => withoutCredentials((u[1] ?? '').trim())).filter((u) => u !== '');
      if (list.length > 0) rev.remoteUrls = list;
    }
    if (rev.commit || rev.remoteUrls) out.push(rev);
  }
  return out;
}
