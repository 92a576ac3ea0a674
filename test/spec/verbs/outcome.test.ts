import { describe, expect, it } from 'vitest';
import { errnoName } from '../../../spec/errno.js';
import { normaliseReturn } from '../../../spec/verbs/outcome.js';

describe('normaliseReturn', () => {
  it('maps 0 to success on either layer', () => {
    expect(normaliseReturn(0, 'kernel')).toEqual({ errno: null, signFollowsLayer: true });
    expect(normaliseReturn(0, 'libibverbs')).toEqual({ errno: null, signFollowsLayer: true });
  });

  it('names the errno and says whether the sign follows the layer', () => {
    expect(normaliseReturn(-22, 'kernel')).toEqual({ errno: 'EINVAL', signFollowsLayer: true });
    expect(normaliseReturn(22, 'kernel')).toEqual({ errno: 'EINVAL', signFollowsLayer: false });
    expect(normaliseReturn(12, 'libibverbs')).toEqual({ errno: 'ENOMEM', signFollowsLayer: true });
    expect(normaliseReturn(-12, 'libibverbs')).toEqual({ errno: 'ENOMEM', signFollowsLayer: false });
  });

  it('names a libibverbs -1 by the errno the call set, not as EPERM, and says its sign is wrong', () => {
    expect(normaliseReturn(-1, 'libibverbs', 22)).toEqual({ errno: 'EINVAL', signFollowsLayer: false });
    expect(normaliseReturn(-1, 'libibverbs')).toEqual({ errno: 'EPERM', signFollowsLayer: false });
    expect(normaliseReturn(-1, 'libibverbs', 0)).toEqual({ errno: 'EPERM', signFollowsLayer: false });
    // The kernel returns -errno itself: -1 there is EPERM whatever errno holds.
    expect(normaliseReturn(-1, 'kernel', 22)).toEqual({ errno: 'EPERM', signFollowsLayer: true });
  });

  it('keeps an errno outside the table as E#n', () => {
    expect(errnoName(-4095)).toBe('E#4095');
  });
});
