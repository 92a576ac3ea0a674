/**
 * The JSON form of adapter calls when they cross a process or a network: u64 values (bigint)
 * travel as {"$u64": "<decimal>"}; everything else is plain JSON. Shapes are checked by the
 * call schemas (adapters/calls.ts) on each side, not here.
 */
export function toWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { $u64: v.toString() } : v));
}

export function fromWire(text: string): unknown {
  // A walk after a plain parse: JSON.parse with a reviver took three times as long, and a case's
  // record (thousands of objects) crosses from the worker in one line.
  return revive(JSON.parse(text));
}

function revive(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = revive(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  const u64 = object.$u64;
  if (typeof u64 === 'string' && Object.keys(object).length === 1 && /^\d+$/.test(u64)) return BigInt(u64);
  for (const key of Object.keys(object)) object[key] = revive(object[key]);
  return object;
}
