import { z } from 'zod';
import { ErrnoName, errnoName } from '../errno.js';
import { type Layer, signConventionOf } from '../layer.js';
import { i32 } from './ints.js';

/**
 * Where `*bad_wr` pointed after a post: the index of a WR in the posted list, `untouched`
 * (never written: the harness pre-sets a sentinel), `null`, or `foreign` (a pointer outside the list).
 */
export const BadWr = z.union([z.number().int().min(0), z.enum(['untouched', 'null', 'foreign'])]);
export type BadWr = z.infer<typeof BadWr>;

/** What an adapter reports for a post: the raw return value and where bad_wr points. */
export const RawPostOutcome = z.object({
  rawReturn: i32,
  badWr: BadWr,
});
export type RawPostOutcome = z.infer<typeof RawPostOutcome>;

/** What an adapter reports for a verb that returns only a status (modify, destroy, ...). */
export const RawStatus = z.object({ rawReturn: i32 });
export type RawStatus = z.infer<typeof RawStatus>;

/**
 * The normalised view of a return value: the errno name, and whether its sign follows the
 * layer's convention (kernel negative, libibverbs positive). `null` errno means success (0).
 */
export const Normalised = z.object({
  errno: ErrnoName.nullable(),
  signFollowsLayer: z.boolean(),
});
export type Normalised = z.infer<typeof Normalised>;

export function normaliseReturn(rawReturn: number, layer: Layer): Normalised {
  if (rawReturn === 0) return { errno: null, signFollowsLayer: true };
  const negative = rawReturn < 0;
  return {
    errno: errnoName(rawReturn),
    signFollowsLayer: negative === (signConventionOf(layer) === 'negative'),
  };
}

export const PostOutcome = RawPostOutcome.extend(Normalised.shape);
export type PostOutcome = z.infer<typeof PostOutcome>;
