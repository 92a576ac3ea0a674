import { parseDeclaration } from './c-declaration.js';
import type { KernelDocParse } from './parse.js';
import {
  canonicalSectionName,
  diagnostic,
  type Diagnostic,
  type DocFunction,
  type DocParam,
  type Signature,
} from './schema.js';
import { collapseWhitespace, joinLines } from './text.js';

/**
 * Reads man(9) pages as `scripts/kernel-doc -man` writes them (one `.TH` page per function:
 * NAME, SYNOPSIS, ARGUMENTS, then one `.SH` per kernel-doc section) back into DocFunctions.
 * Text comes back plain: troff fonts and escapes are removed. The script's fillers for
 * parameters nobody documented ("-- undescribed --", `void` "no arguments", `...` "variable
 * arguments") are dropped, so `params` means "documented" as it does for parseKernelDoc.
 * Pages for structs, enums, typedefs and DOC: blocks are skipped. Never throws.
 */

export interface ManPageParse {
  function: DocFunction | null;
  diagnostics: Diagnostic[];
}

interface ManSection {
  name: string;
  /** Index of the first line after the `.SH` request. */
  start: number;
  end: number;
}

const FILLERS = new Map([
  ['void', 'no arguments'],
  ['...', 'variable arguments'],
]);
const UNDESCRIBED = '-- undescribed --';
const NOT_FUNCTIONS = /^(struct|union|enum|typedef)\b/;

/** Every page of a `kernel-doc -man FILE` stream. */
export function parseManPages(text: string, file = 'kernel-doc.man'): KernelDocParse {
  const lines = text.split(/\r?\n/);
  const diagnostics: Diagnostic[] = [];
  const starts = lines.flatMap((line, index) => (/^\.TH\b/.test(line) ? [index] : []));
  const stray = lines.slice(0, starts[0] ?? lines.length).findIndex((line) => line.trim() !== '' && !isComment(line));
  if (stray >= 0) {
    diagnostics.push(diagnostic(file, stray + 1, 'man-stray-text', 'text outside any .TH page; ignored'));
  }
  const functions = starts.flatMap((start, i) => {
    const fn = readPage(lines, start, starts[i + 1] ?? lines.length, file, diagnostics);
    return fn ? [fn] : [];
  });
  return { functions, diagnostics };
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
): DocFunction | null {
  const sections = splitSections(lines, start, end);
  const nameSection = sections.find((section) => section.name === 'NAME');
  if (!nameSection) return null; // a DOC: overview page
  const nameLine = lines.slice(nameSection.start, nameSection.end).join(' ');
  const dash = nameLine.indexOf('\\-');
  const name = collapseWhitespace(unescape(dash < 0 ? nameLine : nameLine.slice(0, dash)));
  if (name === '' || NOT_FUNCTIONS.test(name)) return null;

  const body = (section: ManSection) => lines.slice(section.start, section.end);
  const synopsis = sections.find((section) => section.name === 'SYNOPSIS');
  const args = sections.find((section) => section.name === 'ARGUMENTS');
  const description = sections.find((section) => section.name === 'DESCRIPTION');
  const own = new Set(['NAME', 'SYNOPSIS', 'ARGUMENTS', 'DESCRIPTION', 'SEE ALSO']); // SEE ALSO: generated links
  if (!synopsis) diagnostics.push(diagnostic(file, start + 1, 'man-no-synopsis', `page for ${name} has no SYNOPSIS`));
  return {
    name,
    file,
    line: start + 1,
    brief: dash < 0 ? '' : collapseWhitespace(unescape(nameLine.slice(dash + 2))),
    params: args ? readArguments(body(args)) : [],
    description: description ? plainText(body(description)) : '',
    sections: sections
      .filter((section) => !own.has(section.name))
      .map((section) => ({ name: sectionName(section.name), text: plainText(body(section)), inferred: false })),
    signature: synopsis ? readSynopsis(body(synopsis), name, file, synopsis.start, diagnostics) : null,
  };
}

function splitSections(lines: readonly string[], start: number, end: number): ManSection[] {
  const sections: ManSection[] = [];
  for (let i = start + 1; i < end; i++) {
    const request = requestOf(lines[i]!);
    if (request?.name !== 'SH') continue;
    const last = sections.at(-1);
    if (last) last.end = i;
    sections.push({ name: request.args.join(' ').toUpperCase(), start: i + 1, end });
  }
  return sections;
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
    .filter(({ name, description }) => description !== UNDESCRIBED && FILLERS.get(name) !== description);
}

/** Section text without troff: paragraph requests become blank lines, other requests vanish. */
function plainText(lines: readonly string[]): string {
  const text: string[] = [];
  for (const line of lines) {
    const request = requestOf(line);
    if (!request) text.push(unescape(line));
    else if (['PP', 'LP', 'P', 'sp', 'IP'].includes(request.name)) text.push('');
  }
  return joinLines(text);
}

function isComment(line: string): boolean {
  return /^\.\s*\\"/.test(line);
}

/** `.SH "SEE ALSO"` -> { name: 'SH', args: ['SEE ALSO'] }; null for a text line. */
function requestOf(line: string): { name: string; args: string[] } | null {
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

/** Removes font changes and the escapes the script and its successors write; keeps unknown ones. */
function unescape(text: string): string {
  // Bracketed names are bounded so an unclosed `\[` cannot make this quadratic.
  return text.replace(/\\(?:f(?:\[[^\]]{0,16}\]|\(..|.)|\((..)|\[([^\]]{0,16})\]|(.))/g, (escape, ...groups) => {
    if (escape[1] === 'f') return '';
    const [two, bracketed, single] = groups as (string | undefined)[];
    const special = two ?? bracketed;
    if (special !== undefined) return SPECIAL_CHARS.get(special) ?? escape;
    return ESCAPES.get(single!) ?? escape;
  });
}
