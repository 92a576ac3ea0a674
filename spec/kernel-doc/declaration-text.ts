import { INLINE_END, INLINE_ONE_LINE, INLINE_START, type DocComment } from './comment.js';
import { joinedLine } from './continuation.js';

/**
 * The text of the C declaration that follows a kernel-doc comment, read the way
 * scripts/kernel-doc reads it: everything up to the first `{` or `;`, with comments and
 * preprocessor lines left out.
 */

export interface DeclarationText {
  text: string;
  /** Line where the declaration starts, 1-based. */
  line: number;
  /** Index (0-based) of the line where it ends. */
  endIndex: number;
}

/**
 * Reads from just after the comment to the first `{` or `;` (or a `#define` line); null when the
 * file ends before that. A kernel-doc comment on the way is skipped (INLINE_START), as the script
 * skips it.
 */
export function readDeclaration(lines: readonly string[], comment: DocComment): DeclarationText | null {
  const parts: string[] = [];
  let start = -1;
  let inComment = false;
  for (let i = comment.endIndex; i < lines.length; i++) {
    const first = i;
    let raw = comment.after;
    if (i > comment.endIndex) ({ text: raw, end: i } = joinedLine(lines, i));
    if (first > comment.endIndex && INLINE_ONE_LINE.test(raw)) continue;
    if (first > comment.endIndex && INLINE_START.test(raw)) {
      while (i < lines.length && !INLINE_END.test(lines[i]!)) i++;
      continue;
    }
    const stripped = stripComments(raw, inComment);
    inComment = stripped.inComment;
    const code = stripped.code;
    const trimmed = code.trim();
    if (trimmed.startsWith('#')) {
      if (parts.length === 0 && /^#\s*define\b/.test(trimmed)) return { text: trimmed, line: first + 1, endIndex: i };
      continue; // #ifdef and friends around a declaration
    }
    if (start < 0) {
      if (trimmed === '') continue;
      start = first;
    }
    const stop = code.search(/[{;]/);
    if (stop >= 0) {
      parts.push(code.slice(0, stop));
      return { text: parts.join('\n'), line: start + 1, endIndex: i };
    }
    parts.push(code);
  }
  return null;
}

/** Removes C comments from one line; `inComment` carries a `/* ...` across lines. */
function stripComments(line: string, inComment: boolean): { code: string; inComment: boolean } {
  let code = '';
  let i = 0;
  while (i < line.length) {
    if (inComment) {
      const end = line.indexOf('*/', i);
      if (end < 0) return { code, inComment: true };
      code += ' ';
      i = end + 2;
      inComment = false;
      continue;
    }
    const block = line.indexOf('/*', i);
    const rest = line.indexOf('//', i);
    if (rest >= 0 && (block < 0 || rest < block)) return { code: code + line.slice(i, rest), inComment: false };
    if (block < 0) return { code: code + line.slice(i), inComment: false };
    code += line.slice(i, block);
    i = block + 2;
    inComment = true;
  }
  return { code, inComment };
}
