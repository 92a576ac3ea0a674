/** Text and attribute values into HTML: everything in the report comes from results.json, so all of it is escaped. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A JSON value as compact text for a <code> cell. */
export const json = (value: unknown): string => esc(JSON.stringify(value));

/** A stable element id for a case in one column (a case id has `/`, which ids and anchors should not). */
export const caseAnchor = (column: number, caseId: string): string => `case-${column}-${caseId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
