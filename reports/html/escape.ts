const SPECIAL = /[&<>"']/;
const ENTITY: Record<string, string> = { '&': '&#38;', '<': '&#60;', '>': '&#62;', '"': '&#34;', "'": '&#39;' };

/**
 * Text and attribute values into HTML: everything in the report comes from results.json, so all of
 * it is escaped. Most values have nothing to escape: a test first spares them the replace, which
 * was a tenth of the report's time.
 */
export function esc(value: unknown): string {
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ENTITY[c] as string) : text;
}

/** A JSON value as compact text for a <code> cell. */
export const json = (value: unknown): string => esc(JSON.stringify(value));

/** A stable element id for a case in one column (a case id has `/`, which ids and anchors should not). */
export const caseAnchor = (column: number, caseId: string): string => `case-${column}-${caseId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
