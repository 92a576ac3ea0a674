import { z } from 'zod';

/** C integer widths of the verbs structs, so out-of-range values are rejected at the boundary. */
export const u64 = z.bigint().min(0n).max(2n ** 64n - 1n);
export const u32 = z.number().int().min(0).max(2 ** 32 - 1);
export const u16 = z.number().int().min(0).max(2 ** 16 - 1);
export const u8 = z.number().int().min(0).max(255);
export const i32 = z.number().int().min(-(2 ** 31)).max(2 ** 31 - 1);

/** A resource handle: a plain id, so it can cross a process boundary or a network. */
export const Handle = z.number().int().min(0);
export type Handle = z.infer<typeof Handle>;
