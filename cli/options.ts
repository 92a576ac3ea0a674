import { InvalidArgumentError } from 'commander';
import { Profile } from '../adapters/adapter.js';
import { ALL_FORMATS, type ReportFormat } from '../reports/write.js';

/** commander argument parsers: a bad value is reported by commander as a usage error (exit 2). */
export function parseProfile(value: string): Profile {
  const parsed = Profile.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`expected one of: ${Profile.options.join(', ')}`);
  return parsed.data;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** A 32-bit signed integer: fast-check draws its seeds from the whole range, negative ones included. */
export function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < -0x80000000 || n > 0x7fffffff) throw new InvalidArgumentError('expected an integer from -2147483648 to 2147483647');
  return n;
}

/** The longest a Node timer can wait (2^31 - 1 ms): a longer delay fires after 1 ms instead. */
export const MAX_TIMER_SECONDS = Math.floor(0x7fffffff / 1000);

/** A case that needs more than an hour is hung; the tiers file has the same bound. */
export const MAX_CASE_TIMEOUT_SECONDS = 3600;

/** Whole seconds from 1 to `max`: a parser for a timeout flag. */
export function parseTimeoutSeconds(max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0 || n > max) throw new InvalidArgumentError(`expected whole seconds from 1 to ${max}`);
    return n;
  };
}

/** An integer from `min` to `max`: a parser for a bounded count flag (--repeat, --load). */
export function parseIntIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

export function parseNonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected an integer >= 0');
  return n;
}

/** `--format md,junit`: the report formats to write (results.json is always written). */
export function parseFormats(value: string): ReportFormat[] {
  const formats = value.split(',').map((f) => f.trim());
  const unknown = formats.filter((f) => !(ALL_FORMATS as readonly string[]).includes(f));
  if (unknown.length > 0 || formats.length === 0) throw new InvalidArgumentError(`unknown format ${unknown.join(', ') || "''"}: expected a comma-separated list of ${ALL_FORMATS.join(', ')}`);
  return [...new Set(formats)] as ReportFormat[];
}
