/**
 * Values made from a zod schema, for tests that must cover every field of a shape as the schema
 * declares it today (a field added tomorrow is covered without editing the test).
 */
import type { z } from 'zod';
import { aliasesOf } from '../../protocol/fields.js';

/** The parts of a zod schema's definition these tests read (zod 4's `_zod.def`). */
export interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  valueType?: z.ZodType;
  items?: z.ZodType[];
}
export const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The fields of an object schema under its wrappers and codecs, without the aliases it reads. */
export function canonicalFields(schema: z.ZodType): Record<string, z.ZodType> {
  const aliases = new Set<string>();
  let s = schema;
  for (;;) {
    for (const alias of Object.keys(aliasesOf(s))) aliases.add(alias);
    const def = defOf(s);
    if (def.type === 'object') return Object.fromEntries(Object.entries(def.shape!).filter(([k]) => !aliases.has(k)));
    if (def.type === 'optional' || def.type === 'nullable') s = def.innerType!;
    else if (def.type === 'pipe') s = defOf(def.in!).type === 'transform' ? def.out! : def.in!;
    else throw new Error(`not an object schema: ${def.type}`);
  }
}

/** A valid value of `schema` (every field of an object filled), strings naming `label`. */
export function sampleOf(schema: z.ZodType, label: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return sampleOf(def.innerType!, label);
    case 'pipe':
      return sampleOf(defOf(def.in!).type === 'transform' ? def.out! : def.in!, label);
    case 'object':
      return Object.fromEntries(Object.entries(canonicalFields(schema)).map(([k, v]) => [k, sampleOf(v, `${label}.${k}`)]));
    case 'array':
      return [sampleOf(def.element!, `${label}[]`)];
    case 'tuple':
      return def.items!.map((item, i) => sampleOf(item, `${label}.${i}`));
    case 'union':
      return sampleOf(def.options![0]!, label);
    case 'record':
      return { SAMPLE_KEY: sampleOf(def.valueType!, `${label}.SAMPLE_KEY`) };
    case 'enum':
      return Object.values(def.entries!)[0];
    case 'literal':
      return def.values![0];
    case 'string':
      return `sample ${label}`;
    case 'number':
      return 7;
    case 'boolean':
      return true;
    default:
      return 'sample';
  }
}
