import { joinLines } from './text.js';

/**
 * The troff that man pages are written in, read back as plain text: shared by the man(9) reader
 * for `kernel-doc -man` output (man.ts) and the man(3) reader for libibverbs' pages (../man-page.ts).
 */

export interface ManSection {
  /** Upper case, as the page's `.SH` spells it without quotes. */
  name: string;
  /** Index of the first line after the `.SH` request. */
  start: number;
  end: number;
}

/** The `.SH` sections found in lines[from, end). */
export function splitSections(lines: readonly string[], from: number, end: number): ManSection[] {
  const sections: ManSection[] = [];
  for (let i = from; i < end; i++) {
    const request = requestOf(lines[i]!);
    if (request?.name !== 'SH') continue;
    const last = sections.at(-1);
    if (last) last.end = i;
    sections.push({ name: request.args.join(' ').toUpperCase(), start: i + 1, end });
  }
  return sections;
}

const BREAKS = ['PP', 'LP', 'P', 'sp', 'IP'];
/** Requests whose arguments are text, and what joins them: the alternating-font ones join without spaces. */
const TEXT_REQUESTS = new Map([
  ['B', ' '],
  ['I', ' '],
  ['SM', ' '],
  ['SB', ' '],
  ['SS', ' '],
  ['BI', ''],
  ['IB', ''],
  ['BR', ''],
  ['RB', ''],
  ['IR', ''],
  ['RI', ''],
]);

/**
 * Section text without troff: paragraph requests become blank lines, font requests keep their
 * text, other requests (`.TP`, `.nf`, `.in`, ...) vanish.
 */
export function plainText(lines: readonly string[]): string {
  const text: string[] = [];
  for (const line of lines) {
    const request = requestOf(line);
    const join = request ? TEXT_REQUESTS.get(request.name) : undefined;
    if (!request) text.push(unescape(line));
    else if (join !== undefined) text.push(unescape(request.args.join(join)));
    else if (BREAKS.includes(request.name)) text.push('');
  }
  return joinLines(text);
}

/** `.SH "SEE ALSO"` -> { name: 'SH', args: ['SEE ALSO'] }; null for a text line. */
export function requestOf(line: string): { name: string; args: string[] } | null {
  const request = /^\.\s*(\S*)(.*)$/.exec(line);
  return request ? { name: request[1]!, args: requestArgs(request[2]!) } : null;
}

/** troff arguments: space-separated, or double-quoted with `""` for a quote; a quote may run to the end. */
function requestArgs(text: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ' || text[i] === '\t') {
      i++;
      continue;
    }
    const quoted = text[i] === '"';
    let arg = '';
    if (quoted) i++;
    while (i < text.length) {
      const char = text[i]!;
      if (quoted && char === '"' && text[i + 1] === '"') i++;
      else if (quoted ? char === '"' : char === ' ' || char === '\t') break;
      arg += char;
      i++;
    }
    if (quoted) i++;
    args.push(arg);
  }
  return args;
}

// Maps, not object literals: an escape named `\[constructor]` must not find Object.prototype.
const ESCAPES = new Map([
  ['-', '-'],
  ['&', ''],
  ['e', '\\'],
  ['\\', '\\'],
  [' ', ' '],
]);
const SPECIAL_CHARS = new Map([
  ['bu', '•'],
  ['em', '—'],
  ['en', '–'],
  ['aq', "'"],
  ['dq', '"'],
]);

/**
 * Removes font and size changes and comments, and replaces the escapes that the script, its
 * successors and libibverbs' pages write; keeps unknown ones.
 */
export function unescape(text: string): string {
  // Bracketed names are bounded so an unclosed `\[` cannot make this quadratic.
  const escapes = /\\(?:(f(?:\[[^\]]{0,16}\]|\(..|.)|s(?:[+-]?\d|\(..|\[[^\]]{0,16}\])|".*)|\((..)|\[([^\]]{0,16})\]|(.))/g;
  return text.replace(escapes, (escape, ...groups) => {
    const [dropped, two, bracketed, single] = groups as (string | undefined)[];
    if (dropped !== undefined) return '';
    const special = two ?? bracketed;
    if (special !== undefined) return SPECIAL_CHARS.get(special) ?? escape;
    return ESCAPES.get(single!) ?? escape;
  });
}
