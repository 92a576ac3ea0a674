import { parseDeclaration } from './c-declaration.js';
import type { KernelDocParse } from './parse.js';
import {
  canonicalSectionName,
  diagnostic,
  type Diagnostic,
  type DocEntry,
  type DocKind,
  type DocParam,
  type Signature,
} from './schema.js';
import { collapseWhitespace } from './text.js';
import { type ManSection, plainText, requestOf, splitSections, unescape } from './troff.js';

/**
 * Reads man(9) pages as `scripts/kernel-doc -man` writes them (one `.TH` page per function:
 * NAME, SYNOPSIS, ARGUMENTS, then one `.SH` per kernel-doc section; a struct or union's page has
 * Members instead of ARGUMENTS, an enum's Constants, a typedef's neither) back into DocEntries.
 * Text comes back plain: troff fonts and escapes are removed. The script's fillers for
 * parameters nobody documented ("-- undescribed --", `void` "no arguments", `...` "variable
 * arguments", an anonymous struct member's `{unnamed_struct}` "anonymous") are dropped, so
 * `params` and `members` mean "documented" as they do for parseKernelDoc. A type's SYNOPSIS (its
 * re-indented definition) is not read. DOC: pages are skipped. Never throws.
 */

export interface ManPageParse {
  function: DocEntry | null;
  diagnostics: Diagnostic[];
}

const FILLERS = new Map([
  ['void', 'no arguments'],
  ['...', 'variable arguments'],
]);
const UNDESCRIBED = '-- undescribed --';
const TYPE_NAME = /^(struct|union|enum|typedef) (.*)$/;
const ANONYMOUS = /^\{unnamed_\w+\}$/;

/** Every page of a `kernel-doc -man FILE` stream. */
export function parseManPages(text: string, file = 'kernel-doc.man'): KernelDocParse {
  const lines = text.split(/\r?\n/);
  const diagnostics: Diagnostic[] = [];
  const starts = lines.flatMap((line, index) => (/^\.TH\b/.test(line) ? [index] : []));
  const stray = lines.slice(0, starts[0] ?? lines.length).findIndex((line) => line.trim() !== '' && !isComment(line));
  if (stray >= 0) {
    diagnostics.push(diagnostic(file, stray + 1, 'man-stray-text', 'text outside any .TH page; ignored'));
  }
  const entries = starts.flatMap((start, i) => {
    const fn = readPage(lines, start, starts[i + 1] ?? lines.length, file, diagnostics);
    return fn ? [fn] : [];
  });
  return {
    functions: entries.filter((entry) => entry.kind === 'function'),
    types: entries.filter((entry) => entry.kind !== 'function'),
    diagnostics,
  };
}

/** One page; a stream of several is read by parseManPages. */
export function parseManPage(text: string, file: string): ManPageParse {
  const { functions, diagnostics } = parseManPages(text, file);
  const pages = text.split(/\r?\n/).filter((line) => /^\.TH\b/.test(line)).length;
  if (pages === 0) diagnostics.push(diagnostic(file, 1, 'man-no-page', 'no .TH request: this is not a man page'));
  if (pages > 1) {
    diagnostics.push(diagnostic(file, 1, 'man-extra-pages', `${pages} pages found; only the first is read`));
  }
  return { function: functions[0] ?? null, diagnostics };
}

function readPage(
  lines: readonly string[],
  start: number,
  end: number,
  file: string,
  diagnostics: Diagnostic[],
): DocEntry | null {
  const sections = splitSections(lines, start + 1, end);
  const nameSection = sections.find((section) => section.name === 'NAME');
  if (!nameSection) return null; // a DOC: overview page
  const nameLine = lines.slice(nameSection.start, nameSection.end).join(' ');
  const dash = nameLine.indexOf('\\-');
  const title = collapseWhitespace(unescape(dash < 0 ? nameLine : nameLine.slice(0, dash)));
  if (title === '') return null;
  const type = TYPE_NAME.exec(title);
  const kind = (type?.[1] ?? 'function') as DocKind;
  const name = type ? type[2]! : title;

  const body = (section: ManSection) => lines.slice(section.start, section.end);
  const named = (...names: string[]) => sections.find((section) => names.includes(section.name));
  const synopsis = named('SYNOPSIS');
  const args = named('ARGUMENTS');
  const members = named('MEMBERS', 'CONSTANTS');
  const description = named('DESCRIPTION');
  // SEE ALSO: generated links
  const own = new Set(['NAME', 'SYNOPSIS', 'ARGUMENTS', 'MEMBERS', 'CONSTANTS', 'DESCRIPTION', 'SEE ALSO']);
  if (!synopsis && kind === 'function') diagnostics.push(diagnostic(file, start + 1, 'man-no-synopsis', `page for ${name} has no SYNOPSIS`));
  return {
    name,
    kind,
    file,
    line: start + 1,
    brief: dash < 0 ? '' : collapseWhitespace(unescape(nameLine.slice(dash + 2))),
    params: args ? readArguments(body(args)) : [],
    members: members ? readArguments(body(members)) : [],
    description: description ? plainText(body(description)) : '',
    sections: sections
      .filter((section) => !own.has(section.name))
      .map((section) => ({ name: sectionName(section.name), text: plainText(body(section)), inferred: false })),
    signature: synopsis && kind === 'function' ? readSynopsis(body(synopsis), name, file, synopsis.start, diagnostics) : null,
  };
}

/** The script upper-cases section names; give back the kernel-doc spelling ('Return', 'Note'). */
function sectionName(upper: string): string {
  const canonical = canonicalSectionName(upper);
  return canonical === upper ? upper[0] + upper.slice(1).toLowerCase() : canonical;
}

/** `.B "int" rvt_post_srq_recv` then one `.BI "(type name "  ","` per parameter. */
function readSynopsis(
  lines: readonly string[],
  name: string,
  file: string,
  firstIndex: number,
  diagnostics: Diagnostic[],
): Signature | null {
  let returnType = '';
  const params: string[] = [];
  for (const line of lines) {
    const request = requestOf(line);
    if (request?.name === 'B' && request.args.length > 1) returnType = unescape(request.args[0]!);
    if (request?.name === 'BI') params.push(unescape(request.args.join('')));
  }
  const list = params.join('').replace(/^\s*\(/, '').replace(/\)\s*;\s*$/, '');
  // No return type: the script documented a function-like macro.
  const head = returnType === '' ? '#define ' : returnType.endsWith('*') ? returnType : `${returnType} `;
  const result = parseDeclaration(`${head}${name}(${list})`, name);
  if (result.kind === 'ok') return result.signature;
  const reason = result.kind === 'unparsable' ? result.reason : `it declares ${result.declaredName}`;
  const message = `cannot read the SYNOPSIS of ${name}: ${reason}`;
  diagnostics.push(diagnostic(file, firstIndex, 'unparsable-declaration', message));
  return null;
}

/** `.IP "name" 12` then the description, for each parameter. */
function readArguments(lines: readonly string[]): DocParam[] {
  const entries: { name: string; lines: string[] }[] = [];
  for (const line of lines) {
    const request = requestOf(line);
    if (request?.name === 'IP') entries.push({ name: unescape(request.args[0] ?? ''), lines: [] });
    else entries.at(-1)?.lines.push(line);
  }
  return entries
    .map((entry) => ({ name: entry.name, description: plainText(entry.lines) }))
    .filter(
      ({ name, description }) =>
        description !== UNDESCRIBED && FILLERS.get(name) !== description && !(ANONYMOUS.test(name) && description === 'anonymous'),
    );
}

function isComment(line: string): boolean {
  return /^\.\s*\\"/.test(line);
}
