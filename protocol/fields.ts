/**
 * The building blocks of the wire schemas (protocol/ciContext.ts, protocol/api.ts): field types
 * with the contract's messages (`must be a string`...), Jenkins' `null` read as "unknown", and
 * the one alias mechanism: an object shape lists its canonical fields and, apart, the older
 * names each maps to; it parses both spellings and outputs the canonical one.
 */
import { z } from 'zod';

export const str = z.string({ error: 'must be a string' });
export const num = z.number({ error: 'must be a number' });
export const int = z.number({ error: 'must be a number' }).int({ error: 'must be an integer' });
export const bool = z.boolean({ error: 'must be a boolean' });
export const arr = <T extends z.ZodType>(item: T) => z.array(item, { error: 'must be an array' });
export const rec = z.record(z.string(), z.unknown(), { error: 'must be an object' });
/** Jenkins sends null for what it does not know: read as absent (the output never holds it). */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
export const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'must be a string, a number or a boolean' });
/** An object whose unknown fields are kept (CONTRACT section 2: "unknown fields are kept"). */
export const obj = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape, { error: 'must be an object' });

export type Dict = Record<string, unknown>;
/** The unknown fields an object keeps (a spread in a transform loses them from its type). */
export type Loose = { [key: string]: unknown };
/** `o` typed with its unknown fields (which it holds: it was spread from a loose object). */
export const loose = <T extends object>(o: T): T & Loose => o as T & Loose;
export const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `T` without `null` in its fields: what the codec outputs for what it read as nullish. */
export type Defined<T> = { [K in keyof T]: Exclude<T[K], null> };

/** The object without its `null` and `undefined` fields (a new object; nested values shared). */
export function defined<T extends object>(o: T): Defined<T> {
  const out: Dict = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as Defined<T>;
}

type Canonical<C extends z.core.$ZodLooseShape> = Defined<z.output<z.ZodObject<C, z.core.$loose>>>;

const usable = (v: unknown, blankIsNone: boolean): boolean => v !== undefined && v !== null && !(blankIsNone && typeof v === 'string' && v.trim() === '');

/**
 * An object of `canonical` fields that also accepts `aliases` (older name -> canonical name),
 * each with its canonical field's schema: the output carries only the canonical names (the
 * canonical value wins when both are sent), no nulls, and every unknown field as sent.
 * `z.infer` of it is the canonical type. `blankIsNone`: fields for which a blank string is no value
 * (`ciVersion: ""` is none, and gives way to `jenkinsVersion`).
 */
const aliasMaps = new WeakMap<object, Readonly<Record<string, string>>>();

/** The aliases (older name -> canonical name) a `withAliases` schema reads; `{}` for any other schema. */
export function aliasesOf(schema: object): Readonly<Record<string, string>> {
  return aliasMaps.get(schema) ?? {};
}

export function withAliases<C extends z.core.$ZodLooseShape, A extends Record<string, keyof C & string>>(
  canonical: C,
  aliases: A,
  blankIsNone: readonly (keyof C & string)[] = [],
) {
  const aliasShape: Record<string, z.ZodType> = {};
  for (const [alias, name] of Object.entries(aliases)) {
    aliasShape[alias] = (canonical[name] as unknown as z.ZodType).meta({ description: `Older name of \`${name}\` (read as it)` });
  }
  const schema = obj({ ...canonical, ...aliasShape } as C).transform((o): Canonical<C> => {
    const out: Dict = { ...o };
    for (const [alias, name] of Object.entries(aliases)) {
      const blank = blankIsNone.includes(name);
      if (!usable(out[name], blank) && usable(out[alias], blank)) out[name] = out[alias];
      delete out[alias];
    }
    for (const name of blankIsNone) if (!usable(out[name], true)) delete out[name];
    return defined(out) as Canonical<C>;
  });
  aliasMaps.set(schema, aliases);
  return schema;
}

/** An object of canonical fields only: the output without nulls, unknown fields kept. */
export function shape<C extends z.core.$ZodLooseShape>(canonical: C) {
  return obj(canonical).transform((o): Canonical<C> => defined(o) as Canonical<C>);
}

/**
 * Drops nulls (Jenkins' "unknown") and undefined at every level. Iterative: client JSON of any
 * depth cannot exhaust the stack here (the body reader also refuses more than 64 levels).
 */
export function withoutNulls(value: unknown): unknown {
  const work: [unknown[] | Dict, unknown[] | Dict][] = [];
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const target: unknown[] = [];
      work.push([v, target]);
      return target;
    }
    if (isDict(v)) {
      const target: Dict = {};
      work.push([v, target]);
      return target;
    }
    return v;
  };
  const root = copy(value);
  while (work.length > 0) {
    const [source, target] = work.pop()!;
    if (Array.isArray(source)) {
      for (const v of source) if (v !== null && v !== undefined) (target as unknown[]).push(copy(v));
    } else {
      for (const [k, v] of Object.entries(source)) if (v !== null && v !== undefined) (target as Dict)[k] = copy(v);
    }
  }
  return root;
}
