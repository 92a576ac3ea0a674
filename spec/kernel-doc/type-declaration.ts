import { expandTabs, INLINE_END, INLINE_ONE_LINE, INLINE_START, type DocComment } from './comment.js';
import { joinedLine } from './continuation.js';
import type { DocParam } from './schema.js';
import { joinLines } from './text.js';

/**
 * The declaration after a struct, union, enum or typedef comment, read as scripts/kernel-doc
 * reads it (process_proto_type): line by line, `//` comments cut, a preprocessor line ended with
 * `;`, pieces joined with spaces, until a `;` outside braces. Block comments stay (the struct
 * reader needs its `private:`/`public:` markers), but kernel-doc comments inside the body
 * (`/** @member: ... *\/`, process_inline) are taken out: they document members.
 */

export interface TypeDeclaration {
  /** The declaration as one line, up to and with its final `;`. */
  text: string;
  /** Line where it starts, 1-based. */
  line: number;
  /** Index (0-based) of the line where it ends. */
  endIndex: number;
  /** Members documented inside the body, in order (a later one replaces an earlier one). */
  inline: DocParam[];
}

const INLINE_HEADING = /\s*\*\s*(@\s*[\w][\w.]*\s*):(.*)/;
const CONTENT = /\s*\* ?(.*)/;
// dump_section's $type_param, unanchored as there: `@ foo ` names `foo`.
const PARAM_NAME = /@(\w*(?:(?:\.\w+)|(?:->\w+))*(?:\.\.\.)?)/;

/**
 * Reads from the line after the comment (the script never reads code after its `*\/`) to the `;`
 * that ends the declaration; null when the file ends first. Like the script, it reads a `/**`
 * line as the start of an inline comment even when it opens the next kernel-doc comment.
 */
export function readTypeDeclaration(lines: readonly string[], comment: DocComment): TypeDeclaration | null {
  let prototype = '';
  let depth = 0;
  let start = -1;
  const inline: DocParam[] = [];
  // Inside a `/**` block: 'name' until its `@member:` line, 'text' after it, 'error' without one.
  let block: 'name' | 'text' | 'error' | null = null;
  let member = '';
  let contents = '';
  const dump = (heading: string, text: string) => {
    const name = PARAM_NAME.exec(heading)?.[1];
    if (name !== undefined) inline.push({ name: name.replace(/(\w)\.\.\.$/, '$1'), description: joinLines(text.split('\n')) });
  };
  for (let i = comment.endIndex + 1; i < lines.length; i++) {
    const first = i;
    const joined = joinedLine(lines, i);
    i = joined.end;
    const line = expandTabs(joined.text);
    if (block !== null) {
      const heading = block === 'name' ? INLINE_HEADING.exec(line) : null;
      if (heading) {
        member = heading[1]!;
        contents = heading[2]!.replace(/^ +/, '');
        if (contents !== '') contents += '\n';
        block = 'text';
      } else if (INLINE_END.test(line)) {
        if (contents !== '' && contents !== '\n') dump(member, contents);
        contents = '';
        block = null;
      } else {
        const content = CONTENT.exec(line);
        if (content && block === 'text') {
          contents += `${content[1]}\n`;
          if (contents.trim() === '') contents = '';
        } else if (content && block === 'name') block = 'error';
      }
      continue;
    }
    const oneLine = INLINE_ONE_LINE.exec(line);
    if (oneLine) {
      if (oneLine[2] !== '') dump(oneLine[1]!, oneLine[2]!);
      continue;
    }
    if (INLINE_START.test(line)) {
      block = 'name';
      continue;
    }
    let code = line.replace(/[\r\n]+/g, ' ').trim().replace(/\/\/.*$/, '');
    if (code.startsWith('#')) code += ';';
    if (start < 0 && code !== '') start = first;
    for (;;) {
      const piece = /^([^{};]*)([{};])(.*)$/.exec(code);
      if (!piece) {
        prototype += code;
        break;
      }
      if (prototype.length > 0) prototype += ' ';
      prototype += piece[1]! + piece[2]!;
      if (piece[2] === '{') depth++;
      else if (piece[2] === '}') depth--;
      else if (depth === 0) return { text: prototype, line: start + 1, endIndex: i, inline };
      code = piece[3]!;
    }
  }
  return null;
}
