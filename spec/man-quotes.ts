import type { Source } from './clauses/schema.js';
import { collapseWhitespace } from './kernel-doc/text.js';
import type { ManPageText } from './man-page.js';

export type ManPageSource = Extract<Source, { kind: 'man-page' }>;

/**
 * Why a man-page citation does not hold, or null when it does: the quote, whitespace collapsed,
 * must occur verbatim in the named section of the page (read from troff source, so there is no
 * renderer hyphenation to undo).
 */
export function quoteProblem(page: ManPageText, source: ManPageSource): string | null {
  const text = page.get(source.section);
  if (text === undefined) return `${source.page} has no ${source.section} section (it has ${[...page.keys()].join(', ')})`;
  if (text.includes(collapseWhitespace(source.quote))) return null;
  return `${source.page} ${source.section} does not contain "${source.quote}"; the section reads: ${text}`;
}
