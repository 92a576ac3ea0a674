import { z } from 'zod';

/**
 * Where the code under test sits. The kernel verbs return a negative errno,
 * libibverbs returns a positive one (man ibv_post_srq_recv: "the value of errno").
 */
export const Layer = z.enum(['kernel', 'libibverbs']);
export type Layer = z.infer<typeof Layer>;

export const SignConvention = z.enum(['negative', 'positive']);
export type SignConvention = z.infer<typeof SignConvention>;

export function signConventionOf(layer: Layer): SignConvention {
  return layer === 'kernel' ? 'negative' : 'positive';
}

/** The raw return value an implementation at `layer` gives for errno `value` (> 0). */
export function rawErrnoReturn(layer: Layer, value: number): number {
  return layer === 'kernel' ? -value : value;
}
