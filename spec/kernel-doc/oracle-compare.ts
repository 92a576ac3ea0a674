import { canonicalSectionName, type DocEntry, type DocKind } from './schema.js';
import { withoutMarkup } from './markup.js';
import { collapseWhitespace } from './text.js';

/**
 * Compares what parseKernelDoc reads from a C file with what scripts/kernel-doc -man says about
 * the same file (read back by parseManPages). The normalisation, and why each step is needed:
 *
 * 1. Whitespace is collapsed: the script re-flows lines (strips leading blanks per line, expands
 *    tabs, joins description chunks without a separating blank line); we keep raw lines.
 * 2. Our texts are passed through the script's man highlighting (withoutMarkup, a port of
 *    @highlights_man) minus the fonts: `@cb` -> `cb`, `%NULL` -> `NULL`, `&struct x` ->
 *    `struct x`, `foo()` -> `foo` (the script drops the parentheses). parseManPages already
 *    removed the troff fonts on its side. The brief is not highlighted by the script, nor here.
 * 3. Section names compare through canonicalSectionName: the script upper-cases them in man.
 * 4. A section we inferred without its colon (`Return -1 if ...`) is plain description for the
 *    script: it must be found in the script's description, is taken out of it before the
 *    descriptions compare, and is not expected among the script's sections.
 * 5. A macro's named variadic parameter (`args...`) described as "variable arguments" is left out
 *    on both sides: the script's filler for an undocumented one reads the same.
 * 6. A type's SYNOPSIS is not compared (neither reading keeps a type's signature): the script
 *    shows the definition re-indented; its members list, which compares, says what it declares.
 * Parameters and members compare as ordered lists: both readings list them in declaration order.
 * Entries pair by kind and name: `struct foo` and `foo()` are two.
 */

function highlighted(text: string): string {
  return collapseWhitespace(withoutMarkup(text));
}

interface View {
  brief: string;
  params: string[];
  members: string[];
  description: string;
  sections: string[];
  /** Texts of inferred sections (ours), or those found in the script's description (theirs). */
  inferred: string[];
  signature: string;
}

function inferredTexts(fn: DocEntry): string[] {
  return fn.sections.filter((section) => section.inferred).map((section) => highlighted(section.text));
}

function viewOfSource(fn: DocEntry): View {
  return {
    brief: collapseWhitespace(fn.brief),
    params: documentedParams(fn).map((param) => `${param.name}: ${highlighted(param.description)}`),
    members: fn.members.map((member) => `${member.name}: ${highlighted(member.description)}`),
    description: highlighted(fn.description),
    sections: fn.sections
      .filter((section) => !section.inferred)
      .map((section) => `${canonicalSectionName(section.name)}: ${highlighted(section.text)}`),
    inferred: inferredTexts(fn),
    signature: signatureView(fn),
  };
}

function viewOfMan(fn: DocEntry, inferred: readonly string[]): View {
  let description = collapseWhitespace(fn.description);
  const found = inferred.filter((text) => description.includes(text));
  for (const text of found) description = collapseWhitespace(description.replace(text, ' '));
  return {
    brief: collapseWhitespace(fn.brief),
    params: documentedParams(fn).map((param) => `${param.name}: ${collapseWhitespace(param.description)}`),
    members: fn.members.map((member) => `${member.name}: ${collapseWhitespace(member.description)}`),
    description,
    sections: fn.sections.map((section) => `${canonicalSectionName(section.name)}: ${collapseWhitespace(section.text)}`),
    inferred: found,
    signature: signatureView(fn),
  };
}

/**
 * Parameters without a macro's named variadic one (`args...`) described as "variable arguments":
 * the script writes that text for it when nobody documented it, so on its page the text does not
 * say whether the comment did (5.)
 */
function documentedParams(fn: DocEntry): DocEntry['params'] {
  const variadic = new Set(fn.signature?.params.flatMap((param) => (/\w\.\.\.$/.test(param.name) ? [param.name.slice(0, -3)] : [])));
  return fn.params.filter((param) => !(variadic.has(param.name) && collapseWhitespace(param.description) === 'variable arguments'));
}

/** Return type and parameters: the script drops storage (`static inline`) and attributes. */
function signatureView(fn: DocEntry): string {
  if (!fn.signature) return '(none)';
  const params = fn.signature.params.map((param) => `${param.type} ${param.name}`.trim());
  return `${fn.signature.returnType} (${params.join(', ')})`;
}

/** One field on which the two readings of an entry differ ('function' when only one side has it). */
export interface Disagreement {
  file: string;
  kind: DocKind;
  /** The entry's name as its page titles it: `rvt_post_srq_recv`, `struct ib_srq_attr`. */
  function: string;
  field: keyof View | 'function';
  ours: string;
  script: string;
}

/**
 * Every disagreement between the two readings of one file (empty: they agree). Functions pair by
 * name, in order: a file may document one name twice (`#ifdef` alternatives).
 */
export function compareReadings(file: string, ours: readonly DocEntry[], script: readonly DocEntry[]): Disagreement[] {
  const problems: Disagreement[] = [];
  const theirs = new Map<string, DocEntry[]>();
  for (const fn of script) theirs.set(title(fn), [...(theirs.get(title(fn)) ?? []), fn]);
  const at = (fn: DocEntry) => ({ file, kind: fn.kind, function: title(fn) });
  for (const fn of ours) {
    const other = theirs.get(title(fn))?.shift();
    if (!other) {
      problems.push({ ...at(fn), field: 'function', ours: 'documented', script: '(none)' });
      continue;
    }
    const a = viewOfSource(fn);
    const b = viewOfMan(other, a.inferred);
    for (const field of Object.keys(a) as (keyof View)[]) {
      const left = JSON.stringify(a[field]);
      const right = JSON.stringify(b[field]);
      if (left !== right) problems.push({ ...at(fn), field, ours: left, script: right });
    }
  }
  for (const fn of [...theirs.values()].flat()) {
    problems.push({ ...at(fn), field: 'function', ours: '(none)', script: 'documented' });
  }
  return problems;
}

/** `rvt_post_srq_recv` for a function, `struct ib_srq_attr` for a type. */
function title(entry: DocEntry): string {
  return entry.kind === 'function' ? entry.name : `${entry.kind} ${entry.name}`;
}

/** A disagreement as readable lines. */
export function describeDisagreement(d: Disagreement): string {
  if (d.field === 'function') return `${d.file}: ${d.function}: only ${d.ours === '(none)' ? 'the script' : 'parseKernelDoc'} documents it`;
  return `${d.file}: ${d.function}: ${d.field}\n  ours:   ${d.ours}\n  script: ${d.script}`;
}

/** compareReadings as readable lines (empty: they agree). */
export function disagreements(file: string, ours: readonly DocEntry[], script: readonly DocEntry[]): string[] {
  return compareReadings(file, ours, script).map(describeDisagreement);
}
