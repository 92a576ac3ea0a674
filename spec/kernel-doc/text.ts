/** Small text helpers shared by the kernel-doc and man-page readers. */

/** Runs of whitespace (newlines included) become one space; ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lines joined with '\n', trailing spaces and blank lines at either end dropped. */
export function joinLines(lines: readonly string[]): string {
  const trimmed = lines.map((line) => line.trimEnd());
  let start = 0;
  let end = trimmed.length;
  while (start < end && trimmed[start] === '') start++;
  while (end > start && trimmed[end - 1] === '') end--;
  return trimmed.slice(start, end).join('\n');
}

/** Removes the indentation common to all non-blank lines. */
export function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)![0]);
  const common = indents.reduce<string | undefined>(
    (prefix, indent) => (prefix === undefined ? indent : commonPrefix(prefix, indent)),
    undefined,
  );
  if (!common) return [...lines];
  return lines.map((line) => (line.startsWith(common) ? line.slice(common.length) : line.trimStart()));
}

function commonPrefix(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}

/** Perl's split, which the ports of scripts/kernel-doc need: trailing empty fields dropped (none for ''). */
export function perlSplit(text: string, separator: string | RegExp): string[] {
  const parts = text.split(separator);
  while (parts.length > 0 && parts.at(-1) === '') parts.pop();
  return parts;
}
