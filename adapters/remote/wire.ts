/**
 * The JSON form of adapter calls when they cross a process or a network: u64 values (bigint)
 * travel as {"$u64": "<decimal>"}; everything else is plain JSON. Shapes are checked by the
 * call schemas (adapters/calls.ts) on each side, not here.
 */
export function toWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? { $u64: v.toString() } : v));
}

export function fromWire(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      const u64 = (v as { $u64?: unknown }).$u64;
      if (keys.length === 1 && typeof u64 === 'string' && /^\d+$/.test(u64)) return BigInt(u64);
    }
    return v;
  });
}
