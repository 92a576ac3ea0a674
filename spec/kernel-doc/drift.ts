import { z } from 'zod';
import { canonicalSectionName, type DocEntry } from './schema.js';
import type { Snapshot } from './snapshot.js';
import { withoutMarkup } from './markup.js';
import { collapseWhitespace } from './text.js';

/**
 * Drift: how another kernel's documentation differs from the pinned snapshot. Texts compare
 * whitespace-collapsed and without kernel-doc markup (a re-wrapped comment, or `%-EINVAL` for
 * `-EINVAL`, is not drift) and sections by canonical name
 * (`Returns:` -> `Return:` is not drift); line numbers and file hashes are ignored.
 */

export const DriftKind = z.enum([
  'function-added',
  'function-removed',
  'signature-changed',
  'brief-changed',
  'description-changed',
  'param-added',
  'param-removed',
  'param-changed',
  'member-added',
  'member-removed',
  'member-changed',
  'section-added',
  'section-removed',
  'section-changed',
]);
export type DriftKind = z.infer<typeof DriftKind>;

export const DriftEntry = z.object({
  kind: DriftKind,
  /** The function's name, or the type's with its kind: `struct ib_srq_attr`. */
  function: z.string(),
  file: z.string(),
  /**
   * '' for a whole function or type; 'signature', 'brief', 'description', 'params.<name>',
   * 'members.<name>' or 'sections.<Name>'.
   */
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type DriftEntry = z.infer<typeof DriftEntry>;

/** `spec check --json`: the drift of one set, between the pinned kernel and the one checked. */
export const DriftReport = z.object({
  set: z.string(),
  pinned: z.string(),
  checked: z.string(),
  drift: z.array(DriftEntry),
  /** Ids of the clauses whose cited text changed. */
  clauses: z.array(z.string()),
});
export type DriftReport = z.infer<typeof DriftReport>;

type Texts = ReadonlyMap<string, string>;

export function diffSnapshots(pinned: Snapshot, other: Snapshot): DriftEntry[] {
  const before = functionsByKey(pinned);
  const after = functionsByKey(other);
  const entries: DriftEntry[] = [];
  for (const [key, fn] of before) {
    const next = after.get(key);
    if (next) entries.push(...diffFunction(fn, next));
    else entries.push({ kind: 'function-removed', ...whereIs(fn), field: '', before: fn.brief, after: null });
  }
  for (const [key, fn] of after) {
    if (!before.has(key)) entries.push({ kind: 'function-added', ...whereIs(fn), field: '', before: null, after: fn.brief });
  }
  return entries;
}

function whereIs(fn: DocEntry): Pick<DriftEntry, 'function' | 'file'> {
  return { function: fn.kind === 'function' ? fn.name : `${fn.kind} ${fn.name}`, file: fn.file };
}

/** Functions and types by file and title: `struct foo` and `foo()` are two. */
function functionsByKey(snapshot: Snapshot): Map<string, DocEntry> {
  return new Map(
    snapshot.files.flatMap((file) => [...file.functions, ...file.types].map((fn) => [`${file.path}:${whereIs(fn).function}`, fn] as const)),
  );
}

function diffFunction(pinned: DocEntry, other: DocEntry): DriftEntry[] {
  const at = whereIs(pinned);
  const single = (field: 'signature' | 'brief' | 'description', a: string | null, b: string | null): DriftEntry[] =>
    same(a, b) ? [] : [{ kind: `${field}-changed`, ...at, field, before: a, after: b }];
  return [
    ...single('signature', pinned.signature?.text ?? null, other.signature?.text ?? null),
    ...single('brief', pinned.brief, other.brief),
    ...single('description', pinned.description, other.description),
    ...diffNamed('param', 'params', paramTexts(pinned.params), paramTexts(other.params)).map((entry) => ({ ...at, ...entry })),
    ...diffNamed('member', 'members', paramTexts(pinned.members), paramTexts(other.members)).map((entry) => ({ ...at, ...entry })),
    ...diffNamed('section', 'sections', sectionTexts(pinned), sectionTexts(other)).map((entry) => ({ ...at, ...entry })),
  ];
}

function paramTexts(params: DocEntry['params']): Texts {
  return new Map(params.map((param) => [param.name, param.description]));
}

function sectionTexts(fn: DocEntry): Texts {
  return new Map(fn.sections.map((section) => [canonicalSectionName(section.name), section.text]));
}

function diffNamed(
  kind: 'param' | 'member' | 'section',
  prefix: 'params' | 'members' | 'sections',
  pinned: Texts,
  other: Texts,
): Pick<DriftEntry, 'kind' | 'field' | 'before' | 'after'>[] {
  const names = [...new Set([...pinned.keys(), ...other.keys()])];
  return names.flatMap((name) => {
    const a = pinned.get(name) ?? null;
    const b = other.get(name) ?? null;
    if (same(a, b)) return [];
    const change = a === null ? 'added' : b === null ? 'removed' : 'changed';
    return [{ kind: `${kind}-${change}` as const, field: `${prefix}.${name}`, before: a, after: b }];
  });
}

function same(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : readable(a) === readable(b);
}

/** What a reader of the rendered page sees: neither re-wrapping nor markup (`%EINVAL`) is drift. */
function readable(text: string): string {
  return collapseWhitespace(withoutMarkup(text));
}

/** The drift as text for a terminal or a CI log, grouped by file and function. */
export function renderDrift(entries: readonly DriftEntry[]): string {
  if (entries.length === 0) return 'No drift: the documented functions and types match the pinned snapshot.\n';
  const lines = [`${entries.length} change${entries.length === 1 ? '' : 's'} to the documented functions and types:`];
  let file = '';
  for (const entry of entries) {
    if (entry.file !== file) {
      file = entry.file;
      lines.push('', file);
    }
    // A type's title has its kind (`struct foo`); a function's gets its parentheses.
    lines.push(`  ${entry.function.includes(' ') ? entry.function : `${entry.function}()`}: ${headline(entry)}`);
    // A whole function's brief is already in its headline.
    if (!entry.kind.startsWith('function-')) {
      if (entry.before !== null) lines.push(`    - ${collapseWhitespace(entry.before)}`);
      if (entry.after !== null) lines.push(`    + ${collapseWhitespace(entry.after)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function headline(entry: DriftEntry): string {
  const [kind, change] = splitKind(entry.kind);
  if (kind === 'function') return change === 'added' ? `newly documented: ${entry.after}` : 'no longer documented';
  const name = entry.field.slice(entry.field.indexOf('.') + 1);
  const subject = kind === 'param' || kind === 'member' ? `@${name}` : kind === 'section' ? `${name}:` : kind;
  return `${subject} ${change}`;
}

function splitKind(kind: DriftKind): [string, string] {
  const dash = kind.lastIndexOf('-');
  return [kind.slice(0, dash), kind.slice(dash + 1)];
}
