/**
 * scripts/kernel-doc reads a line ending in a backslash together with the next one (the backslash
 * removed), in code and in comments alike: a multi-line `#define` is one line to it. The readers
 * join such lines where they read (comments, declarations) and keep physical line numbers.
 */

const CONTINUED = /\\[ \t\f\v]*$/;

/** Whether the line goes on with the next one; the cheap test on its last character first. */
export function continues(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  return (last === 92 || last === 32 || last === 9 || last === 12 || last === 11) && CONTINUED.test(line);
}

/** lines[index] with the lines it continues into, and the index of the last line used. */
export function joinedLine(lines: readonly string[], index: number): { text: string; end: number } {
  let text = lines[index]!;
  let end = index;
  while (end + 1 < lines.length && continues(text)) text = text.replace(CONTINUED, '') + lines[++end]!;
  return { text, end };
}
