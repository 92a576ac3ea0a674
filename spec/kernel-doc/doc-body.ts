import type { CommentLine, DocComment } from './comment.js';
import { canonicalSectionName, diagnostic, type Diagnostic, type DocKind, type DocParam, type DocSection } from './schema.js';
import { collapseWhitespace, dedent, joinLines } from './text.js';

/** What a kernel-doc comment documents, before its C declaration is read. */
export type DocBody =
  | EntryBody
  /** A DOC: block: valid kernel-doc, documenting no declaration. */
  | { kind: 'other' }
  /** A `/**` comment that is not kernel-doc at all (a diagnostic says why). */
  | { kind: 'invalid' };

export interface EntryBody {
  kind: 'entry';
  /**
   * What the name line says it documents (`struct foo - ...`). A typedef documents a function
   * only if it is of a function (pointer): its declaration decides.
   */
  declares: DocKind;
  /** '' for an anonymous enum (`enum - ...`), which the script allows. */
  name: string;
  brief: string;
  params: DocParam[];
  description: string;
  sections: DocSection[];
}

// `name() - brief`, also `type *name - brief`, `name: brief` and a bare `name` (no brief).
const NAME_LINE = /^\s*(?:\w+\s*\*\s*)?(\w+)\s*(?:\(\w*\))?\s*(?:[-:](.*))?$/s;
const DOC_BLOCK = /^\s*DOC:/;
// process_name: the words before `()` and the brief, or else the first word, name the identifier;
// `struct foo`, `union`, `enum` and `typedef` ones document a type.
const IDENTIFIER = /^\s*([\w\s]+?)(?:\(\w*\))?\s*(?:[-:].*)?$|^\s*(\w+)/s;
const TYPE_IDENTIFIER = /^(struct|union|enum|typedef)\b\s*(\S*)/;
const TYPE_WORD = /^\s*(?:struct|union|enum|typedef)\b/;
// The headings scripts/kernel-doc knows ($doc_sect); `Example::` (a literal block) is not one.
const HEADING = /^\s*(@[\w.]+|description|context|returns?|notes?|examples?)\s*:(?!:)\s*(.*)$/is;
// The script's pattern is not anchored: a heading after any later `*` on the line counts too
// (` * * Returns:` in a bulleted comment).
const LATER_HEADING = /\*\s*(@[\w.]+|description|context|returns?|notes?|examples?)\s*:(?!:)\s*(.*)$/is;

function headingOf(text: string): RegExpExecArray | null {
  return HEADING.exec(text) ?? (text.includes('*') ? LATER_HEADING.exec(text) : null);
}

/** The script files Return and Context under one name whatever their spelling; others as written (`Note`, `NOTE`). */
function sectionKey(name: string): string {
  const canonical = canonicalSectionName(name);
  return canonical === 'Return' || canonical === 'Context' ? canonical : name;
}
// Lenient: `Return -1 if ...` at the start of a description line, without the colon.
const INFERRED_RETURN = /^\s*(Returns?)\b(?!\s*:)/;

/** A parameter or section: one chunk per heading (a repeated section heading adds a chunk). */
interface Entry {
  name: string;
  inferred: boolean;
  chunks: string[][];
}

/**
 * Where lines go, as in scripts/kernel-doc's process_body: the brief (until a blank line), the
 * description, or a parameter or section. `afterBlank` is the script's STATE_BODY_WITH_BLANK_LINE:
 * after a blank line inside a section, a line indented by two or more columns continues it, and
 * any other line ends it.
 */
type Target =
  | { kind: 'brief' }
  | { kind: 'description' }
  | { kind: 'entry'; entry: Entry; afterBlank: boolean };

export function readDocBody(comment: DocComment, file: string, diagnostics: Diagnostic[]): DocBody {
  const [first, ...rest] = comment.body;
  if (first && DOC_BLOCK.test(first.text)) return { kind: 'other' };
  // Only a line whose first word names a kind can document a type: the costlier pattern runs on those alone.
  const identifier = first && TYPE_WORD.test(first.text) ? IDENTIFIER.exec(first.text) : null;
  const type = TYPE_IDENTIFIER.exec(identifier?.[1] ?? identifier?.[2] ?? '');
  if (first && type && (type[2] !== '' || type[1] === 'enum')) {
    const brief = /[-:](.*)/s.exec(first.text)?.[1];
    return readEntryBody(type[1] as DocKind, type[2]!, brief, rest, file, diagnostics);
  }
  const nameLine = first && !type ? NAME_LINE.exec(first.text) : null;
  if (!first || !nameLine) {
    const message = 'comment starts with /** but its first line is not `name() - brief`';
    diagnostics.push(diagnostic(file, first?.line ?? comment.line, 'not-kernel-doc', message));
    return { kind: 'invalid' };
  }
  return readEntryBody('function', nameLine[1]!, nameLine[2], rest, file, diagnostics);
}

function readEntryBody(
  declares: DocKind,
  name: string,
  briefStart: string | undefined,
  lines: readonly CommentLine[],
  file: string,
  diagnostics: Diagnostic[],
): EntryBody {
  // Without a `-` after the name there is no brief, and the next lines are description.
  // Typed wide on purpose: the closures below reassign it, which flow analysis cannot see.
  let target = (briefStart === undefined ? { kind: 'description' } : { kind: 'brief' }) as Target;
  const brief: string[] = [briefStart ?? ''];
  const description: string[] = [];
  const params = new Map<string, Entry>();
  const sections: Entry[] = [];
  // A "Returns ..." sentence is only read as a section when no explicit one follows.
  const inferReturn = !lines.some(({ text }) => {
    const heading = headingOf(text)?.[1] ?? '';
    return /^returns?$/i.test(heading) || heading === '@return';
  });

  const findSection = (sectionName: string) => sections.find((section) => sectionKey(section.name) === sectionKey(sectionName));

  /** Text after a section that ended goes to the description, a blank line apart. */
  const toDescription = () => {
    if (target.kind === 'entry' && description.length > 0 && description.at(-1) !== '') description.push('');
    target = { kind: 'description' };
  };

  const addDescription = ({ line, text }: CommentLine) => {
    const inferred = INFERRED_RETURN.exec(text);
    if (inferReturn && inferred && !findSection('Return')) {
      const message = `"${inferred[1]}" without a colon read as a Return section`;
      diagnostics.push(diagnostic(file, line, 'inferred-return', message));
      const entry: Entry = { name: inferred[1]!, inferred: true, chunks: [[text.trimStart()]] };
      sections.push(entry);
      target = { kind: 'entry', entry, afterBlank: false };
      return;
    }
    toDescription();
    description.push(text);
  };

  const openHeading = (line: number, heading: string, text: string) => {
    if (/^description$/i.test(heading)) {
      toDescription();
      if (text !== '') description.push(text);
      return;
    }
    // `@return:` (that spelling only) is a Return section for the script; `@args...:` names `args`.
    const isParam = heading.startsWith('@') && heading !== '@return';
    const entryName = isParam ? heading.slice(1).replace(/(\w)\.\.\.$/, '$1') : heading.replace(/^@/, '');
    let entry = isParam ? params.get(entryName) : findSection(entryName);
    if (entry && isParam) {
      // The script keeps the last description of a parameter.
      diagnostics.push(diagnostic(file, line, 'duplicate-param', `${heading} is documented twice; the last one is kept`));
      entry.chunks = [[text]];
    } else if (entry) {
      diagnostics.push(diagnostic(file, line, 'duplicate-section', `${heading} is documented twice; the texts are joined`));
      entry.chunks.push([text]);
    } else {
      entry = { name: entryName, inferred: false, chunks: [[text]] };
      if (isParam) params.set(entryName, entry);
      else sections.push(entry);
    }
    target = { kind: 'entry', entry, afterBlank: false };
  };

  for (const commentLine of lines) {
    const { line, text } = commentLine;
    const heading = headingOf(text);
    if (heading) {
      openHeading(line, heading[1]!, heading[2]!);
    } else if (text.trim() === '') {
      if (target.kind === 'brief') target = { kind: 'description' };
      else if (target.kind === 'description') description.push('');
      // A blank line ends a Context section, and our inferred Return (description to the script).
      else if (target.entry.inferred || canonicalSectionName(target.entry.name) === 'Context') toDescription();
      else {
        target.afterBlank = true;
        target.entry.chunks.at(-1)!.push('');
      }
    } else if (target.kind === 'brief') {
      brief.push(text);
    } else if (target.kind === 'entry' && (!target.afterBlank || /^\s/.test(text))) {
      target.entry.chunks.at(-1)!.push(text);
    } else {
      addDescription(commentLine);
    }
  }

  return {
    kind: 'entry',
    declares,
    name,
    brief: collapseWhitespace(brief.join(' ')),
    params: [...params.values()].map((entry) => ({ name: entry.name, description: entryText(entry) })),
    description: joinLines(description),
    sections: sections.map((entry) => ({ name: entry.name, text: entryText(entry), inferred: entry.inferred })),
  };
}

/** The heading's own line, then its continuation lines without their common indentation. */
function entryText(entry: Entry): string {
  return entry.chunks.map(([head = '', ...more]) => joinLines([head, ...dedent(more)])).join('\n');
}
