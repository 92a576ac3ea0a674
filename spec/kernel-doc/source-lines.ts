/**
 * A C file's lines as scripts/kernel-doc reads them: a line ending in a backslash goes on with the
 * next one (the backslash removed), in code and in comments alike, so a multi-line `#define` is one
 * line. Each keeps the number of its first physical line.
 */
export interface SourceLines {
  text: readonly string[];
  /** 1-based line number of each entry of `text`. */
  number: readonly number[];
}

const CONTINUED = /\\\s*$/;

export function sourceLines(source: string): SourceLines {
  const physical = source.split(/\r?\n/);
  const text: string[] = [];
  const number: number[] = [];
  for (let i = 0; i < physical.length; i++) {
    number.push(i + 1);
    let line = physical[i]!;
    while (line.includes('\\') && CONTINUED.test(line) && i + 1 < physical.length) line = line.replace(CONTINUED, '') + physical[++i]!;
    text.push(line);
  }
  return { text, number };
}
