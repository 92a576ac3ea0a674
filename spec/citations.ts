import type { Clause, Source } from './clauses/schema.js';
import { findSection } from './kernel-doc/schema.js';
import type { Snapshot } from './kernel-doc/snapshot.js';

type KernelDocSource = Extract<Source, { kind: 'kernel-doc' }>;

/** The drift field (see kernel-doc/drift.ts) that a clause's section names: '@wr' -> 'params.wr'. */
export function driftField(section: string): string {
  if (section.startsWith('@')) return `params.${section.slice(1)}`;
  if (section === 'brief' || section === 'description') return section;
  return `sections.${section}`;
}

/**
 * The exact kernel-doc text a source cites, from the snapshot; an error sentence when the
 * function or the section is not there (the traceability test fails on those).
 */
export function citedText(snapshot: Snapshot, source: KernelDocSource): { text: string; line: number } | { error: string } {
  const file = snapshot.files.find((f) => f.path === source.file);
  if (file === undefined) return { error: `${source.file} is not in the snapshot` };
  const fn = file.functions.find((f) => f.name === source.function);
  if (fn === undefined) return { error: `${source.function}() is not documented in ${source.file}` };
  const { section } = source;
  const { line } = fn;
  if (section === 'brief') return { text: fn.brief, line };
  if (section === 'description') return fn.description === '' ? { error: `${source.function}() has no long description` } : { text: fn.description, line };
  if (section.startsWith('@')) {
    const param = fn.params.find((p) => p.name === section.slice(1));
    return param === undefined ? { error: `${source.function}() documents no parameter ${section}` } : { text: param.description, line };
  }
  const found = findSection(fn, section);
  return found === undefined ? { error: `${source.function}() has no ${section} section` } : { text: found.text, line };
}

export interface Citation {
  /** Index of the source in the clause's sources. */
  source: number;
  text: string;
  /** Where the kernel-doc comment opens in the snapshot's kernel: a failing clause's report links it. */
  line: number;
}

/** Every kernel-doc citation of a clause, resolved to its text. */
export function clauseCitations(snapshot: Snapshot, clause: Clause): Citation[] {
  return clause.sources.flatMap((source, index) => {
    if (source.kind !== 'kernel-doc') return [];
    const cited = citedText(snapshot, source);
    return 'text' in cited ? [{ source: index, text: cited.text, line: cited.line }] : [];
  });
}
