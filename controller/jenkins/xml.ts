/**
 * A lenient reader for the XML that Jenkins (XStream) writes: XML 1.1 declarations, character
 * references XML 1.0 forbids (`&#x1b;`), files without any declaration. The result is a small
 * ordered element tree, because XStream's meaning often lies in order and repetition
 * (`<causeBag><entry><Cause/><int>1</int></entry>`), which object-shaped parses lose.
 */
import { readFile } from 'node:fs/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

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

/** Reads and parses an XML file; null when it does not exist, XmlCorruptError when unreadable. */
export async function readXmlFile(file: string): Promise<XmlElement | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  return parseXml(text, file);
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
