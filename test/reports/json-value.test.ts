import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { JsonValue, toJsonValue } from '../../reports/json-value.js';

describe('JsonValue', () => {
  const json = z.json();
  const samples: unknown[] = [
    null,
    'x',
    0,
    -1.5,
    true,
    [],
    {},
    [1, 'a', null, [false, { b: [2] }]],
    { a: { b: { c: [1, 2, { d: 'e' }] } }, wr_id: '0x10' },
    Object.assign(Object.create(null) as object, { a: 1 }),
    Number.NaN,
    Number.POSITIVE_INFINITY,
    undefined,
    1n,
    () => 1,
    new Map([['a', 1]]),
    new Uint8Array([1]),
    { a: undefined },
    { a: [1, Number.NaN] },
    [undefined],
    { a: new Date(0) },
  ];

  it.each(samples.map((value, i) => [i, value]))('sample %i: accepts exactly what z.json() accepts, and returns it unchanged', (_, value) => {
    const ours = JsonValue.safeParse(value);
    expect(ours.success).toBe(json.safeParse(value).success);
    if (ours.success) expect(ours.data).toEqual(value);
  });

  it('accepts whatever toJsonValue makes of evidence (bigints, bytes, undefined fields)', () => {
    const evidence = { wr_id: 2n ** 63n, data: new Uint8Array([0xab]), missing: undefined, nested: [{ n: Number.NaN }] };
    expect(JsonValue.safeParse(toJsonValue(evidence)).success).toBe(true);
    expect(JsonValue.safeParse(evidence).success).toBe(false);
  });
});
