/**
 * "How do I fix it?" for a JVM linkage error against the checkout's declaration (session 55, helper fx19; the clue
 * comes from jenkins/workspace/jvmLinkage.ts): the member as the checkout declares it against what the caller was
 * compiled against (both cited), the commit that wrote that declaration when the checkout's change did, and where the
 * caller's class comes from: the checkout (then it is a stale build) or, when the checkout lacks it, a jar of the
 * command's classpath (then that jar is what to rebuild, or the old shape to keep). Never "open" a file the checkout
 * lacks.
 */
import type { CiContext, Finding } from '../../../protocol/types.js';
import { at, inlineCode } from '../logtext.js';
import { blocksOf, changesOf } from './changeDiff.js';
import type { Clue } from './clueLine.js';
import { sameFile } from './workspace.js';

const CLUE = /^declares (?:(\S+) of (\S+) as ("(?:[^"\\]|\\.)*")|(\S+) with no member named (\S+)), where the JVM looked for '([^']+)': (.+?)(?:; (\S+), compiled against it, (is in the checkout at (\S+)|is not in the checkout))?(?:; the command's classpath holds (.+))?$/;

/** Whether the clue is this module's, and the caller's class when the checkout lacks it (for the place step). */
export function jvmCallerNotInCheckout(clues: readonly Clue[]): string | undefined {
  for (const c of clues) {
    const m = CLUE.exec(c.what);
    if (m && m[8] && !m[10]) return m[8];
  }
  return undefined;
}

/** `int dev.acme.api.Ledger.balance(java.lang.String)` -> `int balance(String)`. */
function shortForm(printed: string): string {
  const m = /^(?:(\S+) )?(?:[\w$]+\.)*([\w$<>]+)(?:\(([^)]*)\))?$/.exec(printed);
  if (!m) return printed;
  const simple = (t: string): string => t.trim().split(/[.$]/).pop() as string;
  return `${m[1] ? `${simple(m[1])} ` : ''}${m[2] as string}${m[3] !== undefined ? `(${m[3].split(',').filter((x) => x.trim() !== '').map(simple).join(', ')})` : ''}`;
}

/** The commit of the checkout's change that wrote line `line` of `path`, as `commit `abc` (subject)`. */
function commitThatWrote(ci: CiContext, path: string, line: number): string | undefined {
  const w = changesOf(ci);
  for (const d of w?.diffs ?? []) {
    if (!sameFile(d.path, path)) continue;
    const b = blocksOf(d).find((x) => x.added.length > 0 && line >= x.newStart && line < x.newStart + x.added.length);
    if (!b) continue;
    const subject = w?.commits.find((x) => x.commitId === b.commitId)?.message?.split('\n')[0]?.trim();
    return `commit ${inlineCode(b.commitId.slice(0, 10))}${subject ? ` (${subject})` : ''}`;
  }
  return undefined;
}

/** The step for a jvmLinkage.ts clue, or undefined when the clue is not one. */
export function jvmLinkageStep(c: Clue, f: Finding, ci: CiContext): string | undefined {
  const m = CLUE.exec(c.what);
  if (!m) return undefined;
  const [member, owner, quoted, bareOwner, missing, printed, diff, caller, where, callerRel, jars] = m.slice(1) as (string | undefined)[];
  const place = inlineCode(`${c.snippet.path}:${c.line}`);
  const cls = (owner ?? bareOwner) as string;
  const old = inlineCode(shortForm(printed as string));
  const compiled = `the code that called it was compiled against ${inlineCode(printed as string)} ${at(f.message_line)}`;
  const matches = diff === 'it matches';
  const abstract = /AbstractMethodError/.test(f.message);
  const said = (diff as string).replace(/(returns|type is) ([\w.$[\]]+), not ([\w.$[\]]+)/g, '$1 `$2`, not `$3`').replace(/takes (\([^)]*\)), not (\([^)]*\))/g, 'takes `$1`, not `$2`').replace(/(it is (?:an instance method|static)), not/, '$1 now, not');
  const head = quoted
    ? `${place} declares ${inlineCode(member === 'the constructor' ? `${cls.split('.').pop() as string}(...)` : (member as string))} of ${inlineCode(cls)} as ${inlineCode(JSON.parse(quoted) as string)}`
    : `${place} declares ${inlineCode(cls)}, which has no member named ${inlineCode(missing as string)}`;
  const wrote = commitThatWrote(ci, c.snippet.path, c.line);
  const jarList = jars ? jars.split(', ').map((j) => inlineCode(j)).join(', ') : undefined;
  const fromJar = jarList ? `it comes from ${jars?.includes(', ') ? 'one of the jars' : 'the jar'} on the command's classpath (${jarList})` : 'it comes from a jar on the classpath (a dependency: `mvn dependency:tree` / `gradle dependencies` shows which)';
  const callerName = caller ? inlineCode(caller) : 'The calling class';
  // A class that became an interface (or the other way): the type's declaration, and how a class of the old shape must change.
  if (member === '<type>') {
    const isInterface = /an interface, not/.test(diff as string);
    const simple = cls.split('.').pop() as string;
    const whose = caller ? callerName : 'the class that uses it';
    const head2 = `${place} declares ${inlineCode(cls)} as ${inlineCode(JSON.parse(quoted as string) as string)}, but ${whose} was compiled when it was ${isInterface ? 'a class' : 'an interface'} (${inlineCode(printed as string)} ${at(f.message_line)}).${wrote ? ` ${wrote[0]?.toUpperCase()}${wrote.slice(1)} wrote that declaration.` : ''}`;
    const where2 = caller && !callerRel ? ` ${callerName} is not in the checkout: ${fromJar}. Rebuild that jar` : callerRel ? ` Rebuild ${inlineCode(callerRel)} (a clean build)` : ' Rebuild the code compiled against the old shape';
    const shape = isInterface ? `a class that \`extends ${simple}\` must now \`implements ${simple}\`` : `a class that \`implements ${simple}\` must now \`extends ${simple}\``;
    const keep = isInterface ? `keep ${inlineCode(simple)} an abstract class (put the new interface beside it, and let the abstract class implement it)` : `keep ${inlineCode(simple)} an interface (put the new class beside it)`;
    return `${head2}${where2} against the new ${inlineCode(cls)} (${shape}), or ${keep} until it is rebuilt, or revert the change.`;
  }
  if (abstract) {
    const body = `${head}, and ${callerName}${where && callerRel ? ` (${inlineCode(callerRel)})` : ''} does not implement it ${at(f.message_line)}: it was compiled against an older ${inlineCode(cls)}.${wrote ? ` ${wrote[0]?.toUpperCase()}${wrote.slice(1)} wrote that declaration.` : ''}`;
    const way = callerRel ? `rebuild ${inlineCode(callerRel)} (a clean build) and implement ${inlineCode(missing ?? (member as string))} there` : `${callerName} is not in the checkout: ${fromJar}; rebuild that jar against the new ${inlineCode(cls)}`;
    return `${body} ${way[0]?.toUpperCase()}${way.slice(1)}, or give the member a \`default\` body in ${inlineCode(cls)} so classes compiled before it still link, or revert the change.`;
  }
  // Java 17's `NoSuchFieldError: RATE`: no type to compare, so nothing is said to match (a retyped field fails alike).
  if (matches && !/\s/.test(printed as string)) {
    const loaded = jarList ? ` (from the command's classpath: ${jarList})` : '';
    return `${head}; the log names only the field, ${inlineCode(printed as string)} ${at(f.message_line)}, not the type the code that used it was compiled against: a field retyped since then fails like this, and so does an older ${inlineCode(cls)} loaded ahead of the checkout's${loaded}. Compare that declaration with what the caller expects, then rebuild the caller against the checkout's ${inlineCode(cls)} (or run with the checkout's build of it first on the classpath).`;
  }
  if (matches) {
    const loaded = jarList ? `: the ${inlineCode(cls)} the JVM loaded is another (older) build, from the command's classpath (${jarList}) or a stale class directory` : `: the ${inlineCode(cls)} the JVM loaded is another (older) build than the checkout's`;
    return `${head}, which matches what the code that called it was compiled against, ${inlineCode(printed as string)} ${at(f.message_line)}${loaded}. Run with the checkout's build of it ahead of that on the classpath, or release a jar built from the checkout and run with that one.`;
  }
  const keep = missing
    ? `restore ${old} beside the new code (a method that calls it)`
    : /takes/.test(diff as string)
    ? `add back ${old} as an overload that calls the new one`
    : `keep ${old} as it was and give the new ${/type is/.test(diff as string) ? 'field' : 'method'} another name`;
  const change = `${head}, but ${compiled}: ${said}.${wrote ? ` ${wrote[0]?.toUpperCase()}${wrote.slice(1)} wrote that declaration.` : ''}`;
  if (caller && !callerRel) return `${change} ${callerName}, compiled against the old ${old}, is not in the checkout: ${fromJar}. Rebuild that jar against the new ${inlineCode(cls)}, or ${keep} until it is rebuilt, or revert the change.`;
  if (callerRel) return `${change} ${callerName} (${inlineCode(callerRel)}) was compiled against the old ${old}: its class files are older than the checkout's source, so rebuild it with the checkout's ${inlineCode(cls)} (a clean build), or ${keep}.`;
  return `${change} Rebuild the code that calls it against the new ${inlineCode(cls)}, or ${keep}, or revert the change.`;
}

/**
 * The remedy's "Open `dev/acme/plugins/CsvExporter.java:8` ..., where X was raised" when the clue says the checkout
 * lacks that class (it came from a jar): the frame is named, no file to open is claimed.
 */
export function withoutAbsentPlace(text: string, absent: string | undefined): string {
  const m = absent ? /^Open `[^`]+` \(in `([^`]+)`\) (\[L\d+-L\d+\]), where (.+?) was raised\b/.exec(text) : null;
  if (!m || !(m[1] as string).startsWith(`${absent as string}.`)) return text;
  return `${inlineCode(m[1] as string)} ${m[2] as string}, where ${m[3] as string} was raised, belongs to ${inlineCode(absent as string)}, which the checkout does not hold: there is no file of it to open, and the fix is in what the classpath holds or in the declaration that class was compiled against (below).`;
}
