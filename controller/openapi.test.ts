/**
 * The OpenAPI document matches the zod schemas the routes validate with (issue 31): walked side by
 * side, every object of a schema has exactly its fields in the document (canonical names and
 * aliases), every union its branches, every enum and literal its values; every `$ref` resolves.
 * A field added to a schema but not reaching the document (or the reverse) fails here, naming it.
 */
import type { z } from 'zod';
import { COMPONENTS, openApiDocument } from './openapi.js';
import { defOf } from '../test/helpers/schemaSamples.js';

type Json = Record<string, unknown>;
const doc = openApiDocument() as { components: { schemas: Record<string, Json> } };
const components = doc.components.schemas;

/** The document's node behind `$ref`s, and without the `null` branch of a nullable field. */
function resolve(node: Json): Json {
  let n = node;
  for (;;) {
    if (typeof n.$ref === 'string') {
      const name = n.$ref.replace('#/components/schemas/', '');
      const target = components[name];
      if (!target) throw new Error(`$ref ${n.$ref} does not resolve`);
      n = target;
      continue;
    }
    const alternatives = (n.anyOf ?? n.oneOf) as Json[] | undefined;
    if (alternatives) {
      const nonNull = alternatives.filter((a) => a.type !== 'null');
      if (nonNull.length === 1 && nonNull.length < alternatives.length) {
        n = nonNull[0]!;
        continue;
      }
    }
    if (Array.isArray(n.type) && n.type.includes('null')) {
      const types = n.type.filter((t) => t !== 'null');
      n = { ...n, type: types.length === 1 ? types[0] : types };
      continue;
    }
    return n;
  }
}


/** Each difference between a zod schema (as input) and the document's node, with its path. */
function differences(schema: z.ZodType, node: Json, path: string): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return differences(def.innerType!, node, path);
    case 'pipe':
      // What a client sends: the input side, or after a preprocess the schema it feeds.
      return differences(defOf(def.in!).type === 'transform' ? def.out! : def.in!, node, path);
  }
  const n = resolve(node);
  switch (def.type) {
    case 'object': {
      const want = Object.keys(def.shape!).sort();
      const have = Object.keys((n.properties as Json | undefined) ?? {}).sort();
      const missing = want.filter((k) => !have.includes(k)).map((k) => `${path}.${k}: in the schema, not in the document`);
      const extra = have.filter((k) => !want.includes(k)).map((k) => `${path}.${k}: in the document, not in the schema`);
      return [...missing, ...extra, ...want.filter((k) => have.includes(k)).flatMap((k) => differences(def.shape![k]!, (n.properties as Record<string, Json>)[k]!, `${path}.${k}`))];
    }
    case 'array':
      return n.type === 'array' ? differences(def.element!, n.items as Json, `${path}[]`) : [`${path}: an array in the schema, ${JSON.stringify(n.type)} in the document`];
    case 'tuple':
      return n.type === 'array' && Array.isArray(n.prefixItems) && n.prefixItems.length === def.items!.length ? [] : [`${path}: a tuple of ${def.items!.length} in the schema`];
    case 'union': {
      const branches = ((n.anyOf ?? n.oneOf) as Json[] | undefined) ?? [];
      // zod writes a union of plain types as one `type: [...]`.
      if (branches.length === 0 && Array.isArray(n.type)) return n.type.length === def.options!.length ? [] : [`${path}: ${def.options!.length} branches in the schema, types ${JSON.stringify(n.type)} in the document`];
      if (branches.length !== def.options!.length) return [`${path}: ${def.options!.length} branches in the schema, ${branches.length} in the document`];
      return def.options!.flatMap((option, i) => differences(option, branches[i]!, `${path}|${i}`));
    }
    case 'enum': {
      const want = Object.values(def.entries!).sort();
      const have = [...((n.enum as string[] | undefined) ?? [])].sort();
      return JSON.stringify(want) === JSON.stringify(have) ? [] : [`${path}: enum ${JSON.stringify(want)} in the schema, ${JSON.stringify(have)} in the document`];
    }
    case 'literal':
      return n.const === def.values![0] ? [] : [`${path}: literal ${JSON.stringify(def.values![0])} in the schema, ${JSON.stringify(n.const)} in the document`];
    case 'record':
      return n.type === 'object' ? differences(def.valueType!, (n.additionalProperties as Json | undefined) ?? {}, `${path}{}`) : [`${path}: a record in the schema`];
    case 'string':
    case 'number':
    case 'boolean': {
      const want = def.type === 'number' ? ['number', 'integer'] : [def.type];
      return want.includes(String(n.type)) ? [] : [`${path}: ${def.type} in the schema, ${JSON.stringify(n.type)} in the document`];
    }
    default:
      return [];
  }
}

describe('the OpenAPI document', () => {
  it.each(Object.entries(COMPONENTS))('%s matches its zod schema', (name, schema) => {
    expect(differences(schema as z.ZodType, { $ref: `#/components/schemas/${name}` }, name)).toEqual([]);
  });

  it('has every $ref resolving to a named component, none to a shared bag of definitions', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect([ref, components[ref.replace('#/components/schemas/', '')] !== undefined]).toEqual([ref, true]);
    expect(Object.keys(components)).not.toContain('__shared');
  });

  it('lists every kind of answer source (the tool calls of the openai engine too)', () => {
    const kinds = ((components.Source?.oneOf ?? components.Source?.anyOf) as Json[]).map((b) => (b.properties as Record<string, Json>).kind?.const);
    expect(kinds).toEqual(['log', 'context', 'file', 'tool']);
  });

  it('describes the CiContext fields in both spellings', () => {
    const ci = resolve({ $ref: '#/components/schemas/CiContext' });
    const job = resolve((ci.properties as Record<string, Json>).jobDetails!);
    expect(Object.keys(job.properties as Json)).toEqual(expect.arrayContaining(['jobType', 'type', 'isBuildable', 'buildable', 'configXml', 'config']));
    expect(Object.keys(ci.properties as Json)).toEqual(expect.arrayContaining(['ciVersion', 'jenkinsVersion', 'activePlugins', 'workspaceSnippets']));
  });

  it('finds a difference when there is one (the walker is not blind)', () => {
    const ci = COMPONENTS.CiContext as unknown as z.ZodType;
    const node = structuredClone(components.CiContext!);
    delete (node.properties as Json).rootUrl;
    (node.properties as Json).rootUrI = { type: 'string' };
    expect(differences(ci, node, 'CiContext')).toEqual(['CiContext.rootUrl: in the schema, not in the document', 'CiContext.rootUrI: in the document, not in the schema']);
  });
});
