import { XMLParser } from '../fastXml.js';

/** The two spellings XStream uses for a `node` step's workspace action. */
export const WORKSPACE_ACTION_NAMES: readonly string[] = [
  's.a.WorkspaceActionImpl',
  'org.jenkinsci.plugins.workflow.support.actions.WorkspaceActionImpl',
];

export type XmlValue = string | XmlObject | XmlValue[];
export interface XmlObject {
  [key: string]: XmlValue;
}

/**
 * Jenkins writes XML 1.1 with character references XML 1.0 forbids (`&#x1b;`), and sometimes no
 * declaration: fast-xml-parser is lenient about both. Values stay strings (ids like `07` and
 * paths like `1e5` must not become numbers); entries that repeat are always arrays.
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => name === 'entry' || WORKSPACE_ACTION_NAMES.includes(name),
});

/** Parses a Jenkins XML file; null when it is not XML at all. */
export function parseXml(text: string): XmlObject | null {
  try {
    const parsed: unknown = parser.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function isObject(value: unknown): value is XmlObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The document element: its name (`flow-build`, `Tag`...) and content. */
export function rootElement(doc: XmlObject): { name: string; content: XmlValue } | null {
  for (const [name, content] of Object.entries(doc)) {
    if (name.startsWith('?') || name.startsWith('#')) continue;
    return { name, content };
  }
  return null;
}

/** A child's text: '' for an empty element, undefined when absent or not text. */
export function textOf(parent: XmlValue | undefined, name: string): string | undefined {
  if (!isObject(parent)) return undefined;
  const value = parent[name];
  if (typeof value === 'string') return value;
  // `<node class="..."></node>` with attributes ignored parses as ''; an element holding only
  // ignored content parses as an empty object.
  if (isObject(value) && Object.keys(value).length === 0) return '';
  return undefined;
}

export function childOf(parent: XmlValue | undefined, name: string): XmlValue | undefined {
  return isObject(parent) ? parent[name] : undefined;
}

export function asArray(value: XmlValue | undefined): XmlValue[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
