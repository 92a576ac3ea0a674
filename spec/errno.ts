import { z } from 'zod';

/**
 * Linux errno values the verbs return (asm-generic/errno-base.h, errno.h).
 * Numbers are the same for the kernel (negative) and libibverbs (positive) layers.
 */
export const ERRNO_NUMBERS = {
  EPERM: 1,
  ENOENT: 2,
  EIO: 5,
  EAGAIN: 11,
  ENOMEM: 12,
  EACCES: 13,
  EFAULT: 14,
  EBUSY: 16,
  EEXIST: 17,
  ENODEV: 19,
  EINVAL: 22,
  ENOSPC: 28,
  ERANGE: 34,
  ENOSYS: 38,
  EOPNOTSUPP: 95,
  ENOBUFS: 105,
  ENOTCONN: 107,
  ETIMEDOUT: 110,
} as const;

export type KnownErrno = keyof typeof ERRNO_NUMBERS;

/** A normalised errno: a known name, or `E#<n>` for a value outside the table. */
export const ErrnoName = z.string().regex(/^(E[A-Z]+|E#\d+)$/);
export type ErrnoName = z.infer<typeof ErrnoName>;

const byNumber = new Map<number, KnownErrno>(
  Object.entries(ERRNO_NUMBERS).map(([name, value]) => [value, name as KnownErrno]),
);

export function errnoName(value: number): ErrnoName {
  const magnitude = Math.abs(value);
  return byNumber.get(magnitude) ?? `E#${magnitude}`;
}
