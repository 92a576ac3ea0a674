import type { z } from 'zod';

/**
 * A cheaper validator of the same zod schema, for the hot boundaries (a batch's thousands of
 * results crossing from a worker): the schema compiled once to a plain predicate that accepts a
 * value only where zod would accept it and return an equal value, keys in the same order (no
 * default to fill, no key to strip or reorder). Anything else, and every schema with a part the
 * predicate does not model (refinements, transforms, pipes, unions of objects), goes to zod's own
 * parse, which returns or throws as always. So the result is zod's, and so are the error
 * messages; only the common case is quicker. In the guest (TCG, JS mostly interpreted) zod's
 * generic machinery cost more per result than the kernel's verb.
 */

type Check = (value: unknown) => boolean;

/** The parts of zod 4's internal definitions read here (`schema._zod.def`). */
interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; format?: string; value?: number | bigint; inclusive?: boolean; minimum?: number; maximum?: number } } }[];
  coerce?: boolean;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
  options?: Schema[];
  discriminator?: string;
  entries?: Record<string, string | number>;
  values?: unknown[];
}
interface Schema {
  _zod: { def: Def };
}

const PRIMITIVES = new Set(['number', 'bigint', 'string', 'boolean', 'enum', 'literal', 'null']);

/** Range and format checks of a number or bigint, or undefined when one is of a kind not modelled. */
function rangeChecks(def: Def): Check[] | undefined {
  const out: Check[] = [];
  for (const { _zod } of def.checks ?? []) {
    const { check, format, value, inclusive } = _zod.def;
    if (check === 'number_format' && format === 'safeint') out.push((v) => Number.isSafeInteger(v));
    else if (check === 'greater_than' && value !== undefined) out.push(inclusive === true ? (v) => (v as number) >= value : (v) => (v as number) > value);
    else if (check === 'less_than' && value !== undefined) out.push(inclusive === true ? (v) => (v as number) <= value : (v) => (v as number) < value);
    else return undefined;
  }
  return out;
}

/** The predicate of `schema`, or undefined when it has a part this does not model. */
function compile(schema: Schema): Check | undefined {
  const def = schema._zod.def;
  if (def.coerce === true) return undefined;
  switch (def.type) {
    case 'number':
    case 'bigint': {
      const checks = rangeChecks(def);
      if (checks === undefined) return undefined;
      const type = def.type;
      // zod's number refuses NaN and the infinities before any check
      return (v) => typeof v === type && (type === 'bigint' || Number.isFinite(v)) && checks.every((check) => check(v));
    }
    case 'string':
      return def.checks === undefined || def.checks.length === 0 ? (v) => typeof v === 'string' : undefined;
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v as string | number);
    }
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'optional':
    case 'nullable': {
      const inner = def.innerType === undefined ? undefined : compile(def.innerType);
      if (inner === undefined) return undefined;
      const empty = def.type === 'optional' ? undefined : null;
      return (v) => v === empty || inner(v);
    }
    case 'default': {
      // a missing value is zod's to fill
      const inner = def.innerType === undefined ? undefined : compile(def.innerType);
      return inner === undefined ? undefined : (v) => v !== undefined && inner(v);
    }
    case 'array': {
      const element = def.element === undefined ? undefined : compile(def.element);
      if (element === undefined) return undefined;
      let min = 0;
      let max = Infinity;
      for (const { _zod } of def.checks ?? []) {
        const { check, minimum, maximum } = _zod.def;
        if (check === 'min_length' && minimum !== undefined) min = minimum;
        else if (check === 'max_length' && maximum !== undefined) max = maximum;
        else return undefined;
      }
      return (v) => Array.isArray(v) && v.length >= min && v.length <= max && v.every(element);
    }
    case 'object': {
      if (def.checks !== undefined && def.checks.length > 0) return undefined;
      // a loose object keeps the keys it does not name; a plain one strips them, so they go to zod
      const loose = def.catchall?._zod.def.type === 'unknown';
      if (def.catchall !== undefined && !loose) return undefined;
      const fields: [string, Check][] = [];
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        const check = compile(field);
        if (check === undefined) return undefined;
        fields.push([key, check]);
      }
      const index = new Map(fields.map(([key], i) => [key, i]));
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const record = v as Record<string, unknown>;
        for (const [key, check] of fields) if (!check(record[key])) return false;
        // zod's answer holds the named keys in the shape's order, then (loose) the others: so must this
        let at = -1;
        let others = false;
        for (const key in record) {
          const i = index.get(key);
          if (i === undefined) {
            if (!loose) return false;
            others = true;
          } else if (others || i < at) return false;
          else at = i;
        }
        return true;
      };
    }
    case 'union': {
      // zod answers with the first option that accepts: exact only where no option changes its value
      if (def.discriminator !== undefined || !(def.options ?? []).every((option) => PRIMITIVES.has(option._zod.def.type))) return undefined;
      const options = (def.options ?? []).map(compile);
      if (options.some((option) => option === undefined)) return undefined;
      return (v) => options.some((option) => (option as Check)(v));
    }
    default:
      return undefined;
  }
}

/** `schema.parse`, quicker where the value is already exactly what zod would return. */
export function fastParse<S extends z.ZodType>(schema: S): (value: unknown) => z.output<S> {
  const check = compile(schema as unknown as Schema);
  if (check === undefined) return (value) => schema.parse(value);
  return (value) => (check(value) ? (value as z.output<S>) : schema.parse(value));
}
