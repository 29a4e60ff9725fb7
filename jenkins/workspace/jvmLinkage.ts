/**
 * A JVM linkage error against the checkout's declaration (issue 25, session 55, helper fx19). NoSuchMethodError,
 * NoSuchFieldError, AbstractMethodError and IncompatibleClassChangeError name the member as the CALLER was compiled
 * against it (`'int dev.acme.api.Ledger.balance(java.lang.String)'`); when the checkout declares that class
 * (`dev/acme/api/Ledger.java` or `.kt` under any source root), its current declaration says what differs (the return
 * type, the parameters, static or not, the field's type, or nothing: then the class the JVM loaded is another build).
 * The caller's class (the frame that raised it, or AbstractMethodError's receiver class) is looked up in the checkout
 * too, and the jars of the command's classpath (`java -cp a:b.jar`) are named: a caller the checkout lacks came from
 * one of them. One clue, at the declaration's line (or the class's, when it declares no member of that name).
 */

import { jvmTypeLine } from './jvmDecl.js';

export interface JvmFile {
  rel: string;
  lines: readonly string[];
}

export interface JvmWanted {
  /** The class that should declare the member (`dev.acme.api.Ledger`), undefined for Java 17's bare `NoSuchFieldError: RATE`. */
  owner?: string;
  name: string;
  kind: 'method' | 'field' | 'type';
  /** A type's linkage error: what the caller was compiled to find (`class X has interface Y as super class`: a class). */
  was?: 'class' | 'interface';
  ret?: string;
  params?: string[];
  /** IncompatibleClassChangeError: the caller expected a static (or an instance) member. */
  expected?: 'static' | 'instance';
  /** AbstractMethodError's receiver class: compiled against an older interface. */
  receiver?: string;
  /** The member as the JVM printed it. */
  printed: string;
}

const JVM_BASE: Record<string, string> = { Z: 'boolean', B: 'byte', C: 'char', S: 'short', I: 'int', J: 'long', F: 'float', D: 'double', V: 'void' };

/** The types of a JVM descriptor (`(Ljava/lang/String;I)J`), Java 8's form of NoSuchMethodError. */
function descriptorTypes(desc: string): string[] {
  const out: string[] = [];
  for (const m of desc.matchAll(/(\[*)(?:L([\w/$]+);|([ZBCSIJFDV]))/g)) out.push(`${m[2] ? (m[2] as string).replace(/\//g, '.') : JVM_BASE[m[3] as string]}${'[]'.repeat((m[1] as string).length)}`);
  return out;
}

const splitArgs = (s: string): string[] => s.split(',').map((x) => x.trim()).filter((x) => x !== '');

/** The member a JVM linkage error names, as the caller was compiled against it. */
export function jvmLinkageOf(message: string): JvmWanted | undefined {
  let m = /(NoSuchMethodError|IncompatibleClassChangeError): (?:(Expected static|Expecting non-static) method )?'(?:abstract )?([\w.$[\]]+) ([\w.$]+)\.([\w$<>]+)\(([^)]*)\)'/.exec(message);
  if (m) {
    const expected = m[2] ? (m[2] === 'Expected static' ? 'static' : 'instance') : undefined;
    return { owner: m[4] as string, name: m[5] as string, kind: 'method', ret: m[3] as string, params: splitArgs(m[6] as string), ...(expected ? { expected } : {}), printed: `${m[3] as string} ${m[4] as string}.${m[5] as string}(${m[6] as string})` };
  }
  if ((m = /NoSuchMethodError: ([\w.$]+)\.([\w$<>]+)(\([^)]*\))(\S+)/.exec(message))) {
    const params = descriptorTypes(m[3] as string);
    const ret = descriptorTypes(m[4] as string)[0];
    return { owner: m[1] as string, name: m[2] as string, kind: 'method', ...(ret ? { ret } : {}), params, printed: `${m[1] as string}.${m[2] as string}${m[3] as string}${m[4] as string}` };
  }
  if ((m = /AbstractMethodError: Receiver class ([\w.$]+) does not define or inherit an implementation of the resolved method '(?:abstract )?([\w.$[\]]+) ([\w$]+)\(([^)]*)\)' of (?:interface|abstract class|class) ([\w.$]+)/.exec(message))) {
    return { owner: (m[5] as string).replace(/\.$/, ''), name: m[3] as string, kind: 'method', ret: m[2] as string, params: splitArgs(m[4] as string), receiver: m[1] as string, printed: `${m[2] as string} ${m[3] as string}(${m[4] as string})` };
  }
  // IncompatibleClassChangeError of a type: a class that became an interface (or the other way) since the caller was compiled.
  if ((m = /IncompatibleClassChangeError: ((?:class )?([\w.$]+) has interface ([\w.$]+) as super class|class ([\w.$]+) can not implement ([\w.$]+), because it is not an interface.*|Found (interface|class) ([\w.$]+), but (?:class|interface) was expected)/.exec(message))) {
    const printed = (m[1] as string).replace(/\s+$/, '');
    if (m[2]) return { owner: m[3] as string, name: '<type>', kind: 'type', was: 'class', receiver: m[2], printed };
    if (m[4]) return { owner: (m[5] as string).replace(/\.$/, ''), name: '<type>', kind: 'type', was: 'interface', receiver: m[4], printed };
    return { owner: m[7] as string, name: '<type>', kind: 'type', was: m[6] === 'interface' ? 'class' : 'interface', printed };
  }
  if ((m = /NoSuchFieldError: Class ([\w.$]+) does not have member field '([\w.$[\]]+) (\w+)'/.exec(message))) return { owner: m[1] as string, name: m[3] as string, kind: 'field', ret: m[2] as string, printed: `${m[2] as string} ${m[3] as string}` };
  if ((m = /NoSuchFieldError: (?:([\w.$]+)\.)?(\w+)\s*$/.exec(message))) return { ...(m[1] ? { owner: m[1] } : {}), name: m[2] as string, kind: 'field', printed: m[1] ? `${m[1]}.${m[2] as string}` : (m[2] as string) };
  return undefined;
}

/** A type as Java source writes it, for comparing: no package, no generics, no annotations, varargs as an array. */
const simpleType = (t: string): string => t.replace(/@\w+(?:\([^)]*\))?\s*/g, '').replace(/<.*>/g, '').replace(/\.\.\.$/, '[]').replace(/\s+/g, '').split(/[.$]/).pop() as string;

/** Kotlin's types as the JVM sees them (a nullable primitive is boxed). */
const KOTLIN: Record<string, string> = { Int: 'int', Long: 'long', Short: 'short', Byte: 'byte', Boolean: 'boolean', Char: 'char', Double: 'double', Float: 'float', Unit: 'void' };
const BOXED: Record<string, string> = { Int: 'Integer', Char: 'Character' };
function kotlinType(t: string): string {
  const bare = t.trim().replace(/<.*>/g, '');
  if (bare.endsWith('?')) return BOXED[bare.slice(0, -1)] ?? simpleType(bare.slice(0, -1));
  return KOTLIN[bare] ?? simpleType(bare);
}

const MODIFIERS = '(?:(?:public|protected|private|static|final|abstract|synchronized|native|default|strictfp|transient|volatile)\\s+)*';
const STATEMENT = /^\s*(?:return|new|throw|else|case|if|while|for|switch)\b/;

/** The parameter list from `(` at `from` to its matching `)`, over up to four lines. */
function paramsFrom(lines: readonly string[], index: number, from: number): string[] | undefined {
  const text = lines.slice(index, index + 4).join(' ').slice(from);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(' || text[i] === '<') depth++;
    else if (text[i] === ')' || text[i] === '>') {
      depth--;
      if (depth === 0 && text[i] === ')') {
        const inner = text.slice(1, i);
        // Top-level commas only (`Map<String, Integer> m`).
        const parts: string[] = [];
        let d = 0;
        let part = '';
        for (const ch of inner) {
          if (ch === '<') d++;
          if (ch === '>') d--;
          if (ch === ',' && d === 0) {
            parts.push(part);
            part = '';
          } else part += ch;
        }
        if (part.trim() !== '') parts.push(part);
        return parts.map((p) => p.trim());
      }
    }
  }
  return undefined;
}

interface Declared {
  index: number;
  text: string;
  ret?: string;
  params?: string[];
  isStatic: boolean;
  kotlin: boolean;
}

/** The declarations of `name` in a Java or Kotlin file. */
function declarationsIn(file: JvmFile, w: JvmWanted, simpleOwner: string): Declared[] {
  const kotlin = /\.kts?$/.test(file.rel);
  const out: Declared[] = [];
  const ctor = w.name === '<init>';
  const name = ctor ? simpleOwner : w.name.replace(/\$/g, '\\$');
  file.lines.forEach((line, index) => {
    if (STATEMENT.test(line) || /^\s*(?:\/\/|\*|\/\*)/.test(line)) return;
    let m: RegExpExecArray | null;
    if (kotlin) {
      if (w.kind === 'method' && (m = new RegExp(`^(.*?\\bfun\\s+(?:<[^>]+>\\s+)?)${name}\\s*\\(`).exec(line))) {
        const params = (paramsFrom(file.lines, index, m[0].length - 1) ?? []).map((p) => kotlinType(p.replace(/^.*?:/, '').replace(/=.*$/, '')));
        const ret = /\)\s*:\s*([\w.<>?, ]+?)\s*(?:[={]|$)/.exec(file.lines.slice(index, index + 4).join(' '))?.[1];
        out.push({ index, text: line.trim().replace(/\s*[{=]\s*$/, ''), ret: ret ? kotlinType(ret) : 'void', params, isStatic: false, kotlin });
      } else if (w.kind === 'field' && (m = new RegExp(`\\b(?:val|var)\\s+${name}\\s*:\\s*([\\w.<>?]+)`).exec(line))) {
        out.push({ index, text: line.trim(), ret: kotlinType(m[1] as string), isStatic: false, kotlin });
      }
      return;
    }
    const head = new RegExp(`^\\s*(?:@\\w+(?:\\([^)]*\\))?\\s+)*(${MODIFIERS})(?:<[^>]+>\\s+)?${ctor ? '()' : '([\\w.$<>\\[\\], ?]+?)\\s+'}${name}\\s*${w.kind === 'method' ? '\\(' : '(?:=|;)'}`);
    if ((m = head.exec(line))) {
      const ret = ctor ? 'void' : simpleType(m[2] as string);
      const params = w.kind === 'method' ? (paramsFrom(file.lines, index, line.indexOf('(', m[0].length - 1)) ?? []).map((p) => simpleType(p.replace(/\s*\b\w+\s*$/, '').replace(/\bfinal\s+/, ''))) : undefined;
      out.push({ index, text: line.trim().replace(/\s*\{.*$/, '').replace(/\s*=.*$/, ''), ret, ...(params ? { params } : {}), isStatic: /\bstatic\b/.test(m[1] as string), kotlin });
    }
  });
  return out;
}

/** What differs between the declaration and what the caller was compiled against; empty when nothing does. */
function differences(d: Declared, w: JvmWanted): string[] {
  const out: string[] = [];
  const ret = w.ret ? simpleType(w.ret) : undefined;
  if (ret && d.ret && ret !== d.ret) out.push(w.kind === 'field' ? `its type is ${d.ret}, not ${ret}` : `it returns ${d.ret}, not ${ret}`);
  const wanted = w.params?.map(simpleType);
  if (wanted && d.params && wanted.join(',') !== d.params.join(',')) out.push(`it takes (${d.params.join(', ')}), not (${wanted.join(', ')})`);
  if (!d.kotlin && w.expected === 'static' && !d.isStatic) out.push('it is an instance method, not static');
  if (!d.kotlin && w.expected === 'instance' && d.isStatic) out.push('it is static, not an instance method');
  return out;
}

const SKIP_DIR = /(?:^|\/)(?:build|target|out|\.gradle|node_modules)\//;

/** The checkout's file of a class (`dev.acme.api.Ledger$Entry` -> `.../dev/acme/api/Ledger.java` or `.kt`), when one file is it. */
export function classFileOf(index: readonly string[], cls: string, fileName?: string): string | undefined {
  const parts = cls.replace(/\$.*$/, '').split('.');
  const simple = (parts.pop() as string).replace(/Kt$/, '');
  const dir = parts.join('/');
  const names = fileName ? [fileName] : [`${simple}.java`, `${simple}.kt`];
  const hits = index.filter((rel) => !SKIP_DIR.test(rel) && names.some((n) => rel === (dir ? `${dir}/${n}` : n) || rel.endsWith(`/${dir ? `${dir}/` : ''}${n}`)));
  return hits.length === 1 ? hits[0] : undefined;
}

/** The jars of the `java -cp` (`-classpath`, `--class-path`) command the log ran last before `messageLine` (1-based). */
export function classpathJars(log: readonly string[], messageLine: number): string[] {
  for (let n = messageLine - 2; n >= Math.max(0, messageLine - 40); n--) {
    const m = /\bjava\b.*?\s(?:-cp|-classpath|--class-path)[\s=]+(\S+)/.exec(log[n] ?? '');
    if (m) return (m[1] as string).replace(/^['"]|['"]$/g, '').split(/[:;]/).filter((e) => /\.jar$|\/\*$/.test(e));
  }
  return [];
}

/** The first frame of the trace below the message that is not the JDK's (`dev.acme.plugins.CsvExporter`, `CsvExporter.java`). */
function raisingFrame(log: readonly string[], messageLine: number): { cls: string; file?: string } | undefined {
  for (let n = messageLine; n < Math.min(log.length, messageLine + 30); n++) {
    const m = /^\s*at (?:[\w.$]+\/)?([\w.$]+)\.[\w$<>]+\(([^)]*)\)/.exec(log[n] ?? '');
    if (!m) continue;
    if (/^(?:java|javax|jdk|sun|kotlin)\./.test(m[1] as string)) continue;
    const file = /^([\w$]+\.(?:java|kt)):\d+$/.exec(m[2] as string)?.[1];
    return { cls: m[1] as string, ...(file ? { file } : {}) };
  }
  return undefined;
}

export interface JvmLinkageHit {
  rel: string;
  /** 0-based. */
  index: number;
  message: string;
}

/**
 * The clue for a JVM linkage error whose class the checkout declares: `read(rel)` gives a file's lines. `log` is the
 * log's lines, `messageLine` the error's (1-based).
 */
export async function jvmLinkageHits(index: readonly string[], read: (rel: string) => Promise<readonly string[] | undefined>, message: string, log: readonly string[], messageLine: number): Promise<JvmLinkageHit[]> {
  const w = jvmLinkageOf(message);
  if (!w) return [];
  let owner = w.owner;
  let rel = owner ? classFileOf(index, owner) : undefined;
  let lines = rel ? await read(rel) : undefined;
  let decls: Declared[] = [];
  if (owner && rel && lines) decls = declarationsIn({ rel, lines }, w, owner.split(/[.$]/).pop() as string);
  else if (!owner) {
    // Java 17's `NoSuchFieldError: RATE` names no class: the one file of the checkout that declares a field of that name.
    const found: { rel: string; lines: readonly string[]; decls: Declared[] }[] = [];
    for (const r of index.filter((x) => /\.(?:java|kt)$/.test(x) && !SKIP_DIR.test(x)).slice(0, 400)) {
      const l = await read(r);
      const d = l ? declarationsIn({ rel: r, lines: l }, w, '') : [];
      if (l && d.length > 0) found.push({ rel: r, lines: l, decls: d });
    }
    if (found.length !== 1) return [];
    ({ rel, lines, decls } = found[0] as { rel: string; lines: readonly string[]; decls: Declared[] });
    const pkg = lines.map((l) => /^\s*package\s+([\w.]+)/.exec(l)?.[1]).find((p) => p !== undefined);
    owner = `${pkg ? `${pkg}.` : ''}${(rel.split('/').pop() as string).replace(/\.\w+$/, '')}`;
  }
  if (!owner || !rel || !lines) return [];
  const caller = w.receiver ? { cls: w.receiver } : raisingFrame(log, messageLine);
  const callerRel = caller ? classFileOf(index, caller.cls, caller.file) : undefined;
  const jars = classpathJars(log, messageLine);
  const tail = `${caller ? `; ${caller.cls}, compiled against it, ${callerRel ? `is in the checkout at ${callerRel}` : 'is not in the checkout'}` : ''}${jars.length > 0 ? `; the command's classpath holds ${jars.join(', ')}` : ''}`;
  const looked = `where the JVM looked for '${w.printed}'`;
  const member = w.name === '<init>' ? 'the constructor' : w.name;
  // Overloads: the one that matches, else the one with as many parameters, else the only one.
  if (w.kind === 'type') {
    const simple = owner.split(/[.$]/).pop() as string;
    const at = jvmTypeLine(lines, simple);
    const now = at < 0 ? undefined : /\binterface\s/.test(lines[at] as string) ? 'interface' : 'class';
    if (!now || now === w.was) return [];
    return [{ rel, index: at, message: `declares <type> of ${owner} as ${JSON.stringify((lines[at] as string).trim().replace(/\s*\{.*$/, ''))}, where the JVM looked for '${w.printed}': it is ${now === 'interface' ? 'an interface' : 'a class'}, not ${w.was === 'interface' ? 'an interface' : 'a class'}${tail}` }];
  }
  const exact = decls.find((d) => differences(d, w).length === 0);
  const d = exact ?? (decls.length === 1 ? decls[0] : decls.filter((x) => x.params?.length === w.params?.length).length === 1 ? decls.find((x) => x.params?.length === w.params?.length) : undefined);
  if (d) {
    const diff = differences(d, w);
    return [{ rel, index: d.index, message: `declares ${member} of ${owner} as ${JSON.stringify(d.text)}, ${looked}: ${diff.length > 0 ? diff.join(', and ') : 'it matches'}${tail}` }];
  }
  if (decls.length > 0) return [];
  const simple = (owner.split(/[.$]/).pop() as string).replace(/Kt$/, '');
  const classLine = jvmTypeLine(lines, simple);
  return classLine < 0 ? [] : [{ rel, index: classLine, message: `declares ${owner} with no member named ${member}, ${looked}: it was removed or renamed${tail}` }];
}
