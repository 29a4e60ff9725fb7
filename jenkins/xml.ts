/**
 * A lenient reader for the XML that Jenkins (XStream) writes: XML 1.1 declarations, character
 * references XML 1.0 forbids (`&#x1b;`), files without any declaration. The result is a small
 * ordered element tree, because XStream's meaning often lies in order and repetition
 * (`<causeBag><entry><Cause/><int>1</int></entry>`), which object-shaped parses lose.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { decodeCp1252, decodeUtf8OrCp1252 } from '../core/log/decode.js';
import { XMLParser, XMLValidator } from './fastXml.js';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its text nodes joined), untrimmed. */
  text: string;
}

/** A file that exists but is not XML one can read (truncated, garbage, mismatched tags). */
export class XmlCorruptError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file} is not readable XML (${reason})`);
    this.name = 'XmlCorruptError';
  }
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Decodes numeric character references (&#x1b;, &#65;) as well as the five XML entities.
  htmlEntities: true,
  commentPropName: false,
});

/**
 * C0 control characters other than tab and line ends: legal in XML 1.1 as references, but an
 * ESC reaching a terminal (the CLI prints context) or a model prompt does no good.
 */
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const HAS_CONTROL_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function cleanText(text: string): string {
  return HAS_CONTROL_CHAR.test(text) ? text.replace(CONTROL_CHARS, '') : text;
}

type OrderedNode = Record<string, unknown>;

function toElement(node: OrderedNode): XmlElement | null {
  let name: string | null = null;
  for (const key of Object.keys(node)) {
    if (key !== ':@' && key !== '#text') name = key;
  }
  if (name === null || name.startsWith('?')) return null;
  const rawAttrs = node[':@'];
  const attrs: Record<string, string> = {};
  if (rawAttrs && typeof rawAttrs === 'object') {
    for (const [k, v] of Object.entries(rawAttrs as Record<string, unknown>)) attrs[k] = cleanText(String(v));
  }
  const children: XmlElement[] = [];
  let text = '';
  const content = node[name];
  if (Array.isArray(content)) {
    for (const child of content as OrderedNode[]) {
      if ('#text' in child) {
        text += String(child['#text']);
        continue;
      }
      const el = toElement(child);
      if (el) children.push(el);
    }
  }
  return { name, attrs, children, text: cleanText(text) };
}

/**
 * Parses Jenkins XML text into its root element. Throws XmlCorruptError (with `file` as the
 * name to report) when the text is not well-formed.
 */
export function parseXml(xmlText: string, file = 'XML'): XmlElement {
  let text = xmlText.charCodeAt(0) === 0xfeff ? xmlText.slice(1) : xmlText;
  // The declaration carries nothing we need, and XML 1.1 ones upset strict readers.
  text = text.replace(/^\s*<\?xml[^>]*\?>/, '');
  if (text.trim() === '') throw new XmlCorruptError(file, 'empty file');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new XmlCorruptError(file, `${valid.err.msg.replace(/\s+/g, ' ')} at line ${valid.err.line}`);
  }
  let ordered: unknown;
  try {
    ordered = parser.parse(text);
  } catch (err) {
    throw new XmlCorruptError(file, err instanceof Error ? err.message.split('\n')[0] ?? 'parse error' : 'parse error');
  }
  if (Array.isArray(ordered)) {
    for (const node of ordered as OrderedNode[]) {
      const el = toElement(node);
      if (el) return el;
    }
  }
  throw new XmlCorruptError(file, 'no root element');
}

/** A path that exists but is not a regular file (a FIFO, a socket, a device, a directory). */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(readonly file: string) {
    super(`${file} is not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/**
 * Reads a text file that must be a regular file: a FIFO left in a home would block a plain
 * read forever, a directory gives EISDIR. Throws ENOENT-style errors for absent files (see
 * isMissing) and NotRegularFileError for anything else that is not a file.
 */
export async function readTextFile(file: string): Promise<string> {
  const info = await stat(file);
  if (!info.isFile()) throw new NotRegularFileError(file);
  return decodeText(await readFile(file));
}

/** Encodings an XML declaration may name that are read as Windows-1252 (a superset of Latin-1's printable range). */
const LATIN1_NAMES = /^(?:iso-?8859-1|iso_8859-1|latin-?1|l1|cp1252|windows-1252|us-ascii|ascii|cp819|ibm819)$/i;

/**
 * A file's bytes as text, as Jenkins (XmlFile) reads them (ux3, session 42): a byte order mark
 * first (UTF-8, UTF-16), then the encoding an XML declaration names (`<?xml version='1.1'
 * encoding='ISO-8859-1'?>`, written by old installs or by hand), else UTF-8; bytes that are not
 * UTF-8 are read as Windows-1252, as logs are. `cut`: the bytes are a file's head, whose last
 * character may be cut (dropped, not taken for a sign of another encoding).
 */
export function decodeText(bytes: Buffer, cut = false): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decodeText(bytes.subarray(3), cut);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2));
  }
  const declared = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(bytes.subarray(0, 200).toString('latin1'))?.[1];
  if (declared !== undefined && LATIN1_NAMES.test(declared)) return decodeCp1252(bytes);
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) {
    try {
      return new TextDecoder(declared.toLowerCase()).decode(bytes);
    } catch {
      // an encoding this runtime does not know: read as below
    }
  }
  return decodeUtf8OrCp1252(bytes, { cut });
}


/** The first `bytes` of a regular file as text (a multi-byte character cut at the end is dropped). */
export async function readHeadText(file: string, bytes: number): Promise<string> {
  if (!(await stat(file)).isFile()) throw new NotRegularFileError(file);
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return decodeText(buf.subarray(0, bytesRead), bytesRead === bytes);
  } finally {
    await handle.close();
  }
}

/** Files above this size have their big nested elements pruned before parsing. */
export const LARGE_XML_BYTES = 2 * 1024 * 1024;
/** An element below the root's children (an action's content, say) larger than this is pruned. */
export const PRUNE_ELEMENT_BYTES = 256 * 1024;

const TAG = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([^\s/>!?]+)(?:\s[^>]*?)?(\/?)>/g;

/**
 * Makes a very large Jenkins XML file cheap to read: every element at depth 2 or more (the
 * root is depth 0, `<actions>` 1, an action 2) whose text spans more than `limit` characters is
 * replaced by an empty element carrying its attributes and `pruned="<characters>"`. A git
 * BuildData of 60,000 branches (tens of MB) becomes one line; the build's own facts, which sit
 * at depth 1 (`<result>`, `<duration>`...) or in small actions, are all kept. Text that does
 * not nest properly is returned unchanged, for the validator to report.
 */
export function pruneLargeElements(text: string, limit = PRUNE_ELEMENT_BYTES): string {
  const stack: { name: string; start: number; openEnd: number }[] = [];
  const ranges: { start: number; end: number; open: string }[] = [];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    const name = m[2];
    if (name === undefined) continue; // CDATA, comment, declaration
    if (m[1] === '/') {
      const top = stack.pop();
      if (!top || top.name !== name) return text;
      const end = m.index + m[0].length;
      if (stack.length >= 2 && end - top.start > limit) {
        ranges.push({ start: top.start, end, open: text.slice(top.start, top.openEnd) });
      }
    } else if (m[3] !== '/') {
      stack.push({ name, start: m.index, openEnd: m.index + m[0].length });
    }
  }
  if (stack.length > 0 || ranges.length === 0) return text;
  // Inner elements close before outer ones: keep only the outermost of nested ranges.
  ranges.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let pos = 0;
  for (const r of ranges) {
    if (r.start < pos) continue;
    parts.push(text.slice(pos, r.start), `${r.open.slice(0, -1)} pruned="${r.end - r.start}"/>`);
    pos = r.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/**
 * Large files read lately, by path, with the identity and change times they had when read. One
 * context reads a build's build.xml for each permalink it resolves, for the build's details and
 * as the next build's previous one: a job whose three newest build.xml are 30 MB each (git
 * BuildData of 60,000 branches) read 13 times, ~2 CPU-s each. A file written since (another
 * inode, size, mtime or ctime, to the nanosecond) is read again; the kept tree is frozen, so no
 * caller can change what the next one gets (a corrupt file's error is kept the same way). Files of
 * LARGE_XML_BYTES or less are not kept.
 */
const largeRead = new Map<string, { stamp: string; element: Promise<XmlElement> }>();
/** How many large files are kept (each as its pruned tree). */
const LARGE_READ_KEPT = 8;

function deepFreeze(el: XmlElement): XmlElement {
  for (const c of el.children) deepFreeze(c);
  Object.freeze(el.attrs);
  Object.freeze(el.children);
  return Object.freeze(el);
}

async function readXmlText(file: string): Promise<XmlElement> {
  let text = await readTextFile(file);
  if (text.length > LARGE_XML_BYTES) text = pruneLargeElements(text);
  return parseXml(text, file);
}

/**
 * Reads and parses an XML file; null when it does not exist, XmlCorruptError when unreadable,
 * NotRegularFileError for a FIFO or directory. Files over LARGE_XML_BYTES are pruned first, and
 * kept while they do not change (largeRead).
 */
export async function readXmlFile(file: string): Promise<XmlElement | null> {
  try {
    const info = await stat(file, { bigint: true });
    if (!info.isFile() || info.size <= BigInt(LARGE_XML_BYTES)) return await readXmlText(file);
    const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    const kept = largeRead.get(file);
    if (kept?.stamp === stamp) return await kept.element;
    const element = readXmlText(file).then(deepFreeze);
    largeRead.delete(file);
    largeRead.set(file, { stamp, element });
    if (largeRead.size > LARGE_READ_KEPT) largeRead.delete(largeRead.keys().next().value as string);
    return await element;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/**
 * The message of anything thrown. Errors from node:fs may come from another realm (a VM
 * context, as under jest), where `instanceof Error` is false although they are errors.
 */
export function errorMessage(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

/** True for the errors that mean "there is no such file" (ENOENT, or a path through a file). */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The first direct child called `name`. */
export function child(el: XmlElement | null | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** All direct children called `name`. */
export function childrenNamed(el: XmlElement | null | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** The trimmed text of the direct child `name`; undefined when absent or empty. */
export function childText(el: XmlElement | null | undefined, name: string): string | undefined {
  const c = child(el, name);
  if (!c) return undefined;
  const t = c.text.trim();
  return t === '' ? undefined : t;
}

/** The integer in the direct child `name`; undefined when absent or not a number. */
export function childInt(el: XmlElement | null | undefined, name: string): number | undefined {
  const t = childText(el, name);
  if (t === undefined || !/^-?\d+$/.test(t)) return undefined;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** Depth-first search for the first element called `name` anywhere below `el`. */
export function findDeep(el: XmlElement, name: string): XmlElement | undefined {
  for (const c of el.children) {
    if (c.name === name) return c;
    const found = findDeep(c, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * XStream writes `$` in class names as `_-` and `_` as `__`: `hudson.model.Cause_-UserIdCause`
 * is `hudson.model.Cause$UserIdCause`.
 */
export function xstreamClassName(elementName: string): string {
  return elementName.replace(/_-/g, '$').replace(/__/g, '_');
}

/** The simple name of an XStream element's class: `hudson.model.Cause_-UserIdCause` -> `UserIdCause`. */
export function simpleClassName(elementName: string): string {
  const full = xstreamClassName(elementName);
  const last = full.slice(full.lastIndexOf('.') + 1);
  return last.slice(last.lastIndexOf('$') + 1);
}
