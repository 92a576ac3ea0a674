import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finiteNumbers, listElements } from '../../../spec/verbs/lists.js';

describe('finiteNumbers', () => {
  const pairs = finiteNumbers(2, 'pairs');
  const issues = (v: unknown) => {
    const r = pairs.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('keeps the list it was given, and says what its elements are for a reader of the schema', () => {
    const list = [1, 2.5, 3, 4];
    expect(pairs.parse(list)).toBe(list);
    expect(listElements.get(pairs)).toBeInstanceOf(z.ZodNumber);
    expect(listElements.get(z.array(z.number()))).toBeUndefined();
  });

  it('names the first number that is not finite, then a list of the wrong length', () => {
    expect(issues([1, Number.NaN, 3, Number.POSITIVE_INFINITY])).toEqual(['1: expected a finite number, got NaN']);
    expect(issues([1, 2, '3', 4])).toEqual(['2: expected a finite number, got 3']);
    expect(issues([1, 2, 3])).toEqual([': pairs come in groups of 2: got 3 numbers']);
    expect(issues({ length: 2 })).toEqual([': expected an array of numbers']);
  });
});
