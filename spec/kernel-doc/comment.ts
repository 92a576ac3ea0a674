import { diagnostic, type Diagnostic } from './schema.js';
import { joinedLine } from './continuation.js';

/** A line of a `/** ... *\/` block with its leading ` * ` removed. */
export interface CommentLine {
  line: number;
  text: string;
}

export interface DocComment {
  /** Line of the opening `/**`, 1-based. */
  line: number;
  body: CommentLine[];
  /** Index (0-based) of the source line holding the closing `*\/`. */
  endIndex: number;
  /** Code after the closing `*\/` on that line. */
  after: string;
}

/** scripts/kernel-doc only opens a block on a line that is `/**` alone, at column 0. */
export function isDocCommentStart(line: string): boolean {
  return /^\/\*\*\s*$/.test(line);
}

/**
 * Inside a declaration the script reads `/**` lines (indented or not) as kernel-doc comments on
 * members (process_proto, process_inline): a block up to a line that is `*\/` alone, or one line
 * `/** @member: text *\/`. So a comment whose declaration is missing swallows the next one.
 */
export const INLINE_START = /^\s*\/\*\*\s*$/;
export const INLINE_END = /^\s*\*\/\s*$/;
export const INLINE_ONE_LINE = /^\s*\/\*\*\s*(@[\w\s]+):\s*(.*)\s*\*\/\s*$/;

/**
 * Reads the block opened at lines[start]. Returns null (with an error) when the comment never
 * closes: everything after it is comment text, so there is nothing more to read in the file.
 */
export function readDocComment(
  lines: readonly string[],
  start: number,
  file: string,
  diagnostics: Diagnostic[],
): DocComment | null {
  const body: CommentLine[] = [];
  const found: Diagnostic[] = []; // kept only if the comment closes: otherwise it is noise on code lines
  for (let i = start + 1; i < lines.length; i++) {
    const line = i + 1;
    const joined = joinedLine(lines, i);
    const text = joined.text;
    i = joined.end;
    const end = text.indexOf('*/');
    if (end >= 0) {
      const last = text.slice(0, end).replace(/^\s*\*? ?/, '');
      if (last.replace(/\*+$/, '').trim() !== '') {
        // Kept rather than dropped (the script drops it): it is the author's text.
        found.push(diagnostic(file, line, 'suspicious-end-line', 'text before */ on the closing line'));
        body.push({ line, text: last });
      }
      diagnostics.push(...found);
      return { line: start + 1, body, endIndex: i, after: text.slice(end + 2) };
    }
    // Unanchored, as the script's $doc_content: a line without its leading `*` is read from its first `*`.
    const content = /\s*\* ?(.*)$/s.exec(expandTabs(text));
    if (content) body.push({ line, text: content[1]! });
    else found.push(diagnostic(file, line, 'bad-line', 'kernel-doc line does not start with "*"; ignored'));
  }
  const message = 'kernel-doc comment opened here is never closed with */';
  diagnostics.push(diagnostic(file, start + 1, 'unterminated-comment', message, 'error'));
  return null;
}

/** Tabs to spaces at 8-column stops, as the script does first: indentation then counts in columns. */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const char of line) out += char === '\t' ? ' '.repeat(8 - (out.length % 8)) : char;
  return out;
}
