import { describe, expect, it } from 'vitest';
import { WqeRing } from '../../../adapters/model/ring.js';

describe('WqeRing (struct rvt_rwq)', () => {
  it('holds size - 1 entries and reports full at head + 1 == tail', () => {
    const ring = new WqeRing<number>(4);
    expect([ring.push(1), ring.push(2), ring.push(3)]).toEqual([true, true, true]);
    expect(ring.isFull()).toBe(true);
    expect(ring.push(4)).toBe(false);
    expect(ring.count).toBe(3);
  });

  it('is FIFO across the wrap', () => {
    const ring = new WqeRing<number>(3);
    ring.push(1);
    ring.push(2);
    expect(ring.shift()).toBe(1);
    ring.push(3);
    expect(ring.toArray()).toEqual([2, 3]);
    expect([ring.shift(), ring.shift(), ring.shift()]).toEqual([2, 3, undefined]);
    expect(ring.count).toBe(0);
  });

  it('peeks at the oldest entry across the wrap without taking it', () => {
    const ring = new WqeRing<number>(3);
    expect(ring.peek()).toBeUndefined();
    ring.push(1);
    ring.push(2);
    ring.shift();
    ring.push(3);
    expect(ring.peek()).toBe(2);
    expect(ring.count).toBe(2);
  });
});
