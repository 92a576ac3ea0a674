import { z } from 'zod';
import { ErrnoName, errnoName } from '../errno.js';
import { type Layer, signConventionOf } from '../layer.js';
import { i32, u32 } from './ints.js';

/**
 * Where `*bad_wr` pointed after a post: the index of a WR in the posted list, `untouched`
 * (never written: the harness pre-sets a sentinel), `null`, or `foreign` (a pointer outside the list).
 */
export const BadWr = z.union([z.number().int().min(0), z.enum(['untouched', 'null', 'foreign'])]);
export type BadWr = z.infer<typeof BadWr>;

/**
 * Where the driver's post function is called from. Only a kernel-layer adapter can call it from
 * anything but process context; every other adapter refuses the others.
 */
export const PostContext = z.enum(['process', 'irqs-off', 'softirq', 'hardirq']);
export type PostContext = z.infer<typeof PostContext>;

/** What the kernel adapter saw while the driver's post ran (in_hardirq(), irqs_disabled(), ...). */
export const ObservedContext = z.object({
  requested: PostContext,
  hardirq: z.boolean(),
  softirq: z.boolean(),
  irqs_disabled: z.boolean(),
  task: z.boolean(),
  preempt_count: u32,
  cpu: u32,
});
export type ObservedContext = z.infer<typeof ObservedContext>;

/** What an adapter reports for a post: the raw return value and where bad_wr points. */
export const RawPostOutcome = z.object({
  rawReturn: i32,
  badWr: BadWr,
  /** Present when the adapter can tell the calling context (the kernel adapter). */
  context: ObservedContext.optional(),
  /**
   * The errno a failed post left (libibverbs), recorded beside the return value: the man pages
   * say the return value is the errno, so a provider that returns -1 and sets errno is told apart.
   */
  errnoSet: z.number().int().min(0).max(4095).optional(), // MAX_ERRNO: errno values are below 4096
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

/**
 * A -1 with a non-zero errno set is the C convention, not the verbs' (which return the errno
 * itself): its errno name is the one set, and its sign does not follow the layer, so the
 * errno-sign clauses see it; a bare -1 would otherwise read as EPERM.
 */
export function normaliseReturn(rawReturn: number, layer: Layer, errnoSet?: number): Normalised {
  if (rawReturn === 0) return { errno: null, signFollowsLayer: true };
  if (rawReturn === -1 && errnoSet !== undefined && errnoSet > 0 && signConventionOf(layer) === 'positive') {
    return { errno: errnoName(errnoSet), signFollowsLayer: false };
  }
  const negative = rawReturn < 0;
  return {
    errno: errnoName(rawReturn),
    signFollowsLayer: negative === (signConventionOf(layer) === 'negative'),
  };
}

export const PostOutcome = RawPostOutcome.extend(Normalised.shape);
export type PostOutcome = z.infer<typeof PostOutcome>;
