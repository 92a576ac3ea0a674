/** Small pieces of C source, so the emitters read as the program they write. */

/** A C string literal; octal escapes (always three digits) cannot run into a following character. */
export function cString(text: string): string {
  const body = [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      if (byte === 0x22) return '\\"';
      if (byte === 0x5c) return '\\\\';
      if (byte >= 0x20 && byte < 0x7f && byte !== 0x3f) return String.fromCharCode(byte); // '?' would allow trigraphs
      return `\\${byte.toString(8).padStart(3, '0')}`;
    })
    .join('');
  return `"${body}"`;
}

/** Text for inside a block comment. */
export const cComment = (text: string): string => text.replace(/\*\//g, '* /').replace(/\n/g, ' ');

export const u64 = (value: bigint): string => `UINT64_C(0x${value.toString(16)})`;

export const u32 = (value: number): string => `${value}u`;

/** A bit mask from flag names: `IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ`, or 0. */
export const flags = (prefix: string, names: readonly string[]): string => (names.length === 0 ? '0' : names.map((n) => `${prefix}${n}`).join(' | '));

/** Bytes as a C initializer list. */
export const byteList = (hex: string): string => (hex.match(/../g) ?? []).map((b) => `0x${b}`).join(', ');

/** Indents every line, including the continuation lines of a multi-line entry. */
export const indent = (lines: readonly string[], depth = 1): string[] =>
  lines.flatMap((l) => l.split('\n')).map((l) => (l === '' ? l : `${'\t'.repeat(depth)}${l}`));

/** A `{ ... }` block, so each step's locals stay its own. */
export const block = (comment: string, body: readonly string[]): string[] => [`/* ${cComment(comment)} */`, '{', ...indent(body), '}'];
