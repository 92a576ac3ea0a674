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
import { collapseWhitespace } from './text.js';
import { type ManSection, plainText, requestOf, splitSections, unescape } from './troff.js';

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
  const sections = splitSections(lines, start + 1, end);
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

function isComment(line: string): boolean {
  return /^\.\s*\\"/.test(line);
}
