import { z } from 'zod';

/**
 * The shape of a kernel-doc function comment (Documentation/doc-guide/kernel-doc.rst),
 * as read from C source (parse.ts) or from a `kernel-doc -man` page (man.ts).
 */

/** `@wr: the list of work requests to post` */
export const DocParam = z.object({
  name: z.string(),
  description: z.string(),
});
export type DocParam = z.infer<typeof DocParam>;

/**
 * `Return: 0 on success else errno`. `name` is the heading as written ('Returns', 'Context',
 * 'Note'). `inferred` marks a section found without its colon (`Return -1 if ...`): its `text`
 * then keeps the whole raw paragraph, heading word included.
 */
export const DocSection = z.object({
  name: z.string(),
  text: z.string(),
  inferred: z.boolean(),
});
export type DocSection = z.infer<typeof DocSection>;

/** One parameter of the C declaration: `const struct ib_recv_wr **bad_wr`. */
export const CParam = z.object({
  name: z.string(),
  type: z.string(),
});
export type CParam = z.infer<typeof CParam>;

export const Signature = z.object({
  /** The whole declaration up to `{` or `;`, whitespace-normalised. */
  text: z.string(),
  returnType: z.string(),
  params: z.array(CParam),
  /** Annotations such as `__must_hold(&qp->r_lock)`, `__init`. */
  attributes: z.array(z.string()),
  /** Linkage and inlining keywords: `static`, `inline`, `extern`, `__always_inline`. */
  storage: z.array(z.string()),
});
export type Signature = z.infer<typeof Signature>;

export const DocFunction = z.object({
  name: z.string(),
  file: z.string(),
  /** Line of the opening `/**` (of the `.TH` request for a man page), 1-based. */
  line: z.number().int().positive(),
  brief: z.string(),
  params: z.array(DocParam),
  /** The long description, raw text with the comment's ` * ` prefixes removed. */
  description: z.string(),
  sections: z.array(DocSection),
  /** null when no declaration for this name follows the comment. */
  signature: Signature.nullable(),
});
export type DocFunction = z.infer<typeof DocFunction>;

export const DiagnosticCode = z.enum([
  'not-kernel-doc',
  'unterminated-comment',
  'bad-line',
  'suspicious-end-line',
  'duplicate-param',
  'duplicate-section',
  'inferred-return',
  'missing-declaration',
  'unparsable-declaration',
  'name-mismatch',
  'param-undescribed',
  'param-excess',
  'man-no-page',
  'man-extra-pages',
  'man-no-synopsis',
  'man-stray-text',
]);
export type DiagnosticCode = z.infer<typeof DiagnosticCode>;

export const Diagnostic = z.object({
  file: z.string(),
  line: z.number().int().positive(),
  severity: z.enum(['warning', 'error']),
  code: DiagnosticCode,
  message: z.string(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

export function diagnostic(
  file: string,
  line: number,
  code: DiagnosticCode,
  message: string,
  severity: Diagnostic['severity'] = 'warning',
): Diagnostic {
  return { file, line, severity, code, message };
}

/**
 * The name scripts/kernel-doc files a section under, so 'Returns', 'RETURN' and 'return'
 * compare equal; Note(s) and Example(s) are folded the same way. Other names keep their spelling.
 */
export function canonicalSectionName(name: string): string {
  const lower = name.toLowerCase();
  if (lower === 'return' || lower === 'returns') return 'Return';
  if (lower === 'note' || lower === 'notes') return 'Note';
  if (lower === 'example' || lower === 'examples') return 'Example';
  if (lower === 'context' || lower === 'description') return lower[0]!.toUpperCase() + lower.slice(1);
  return name;
}

/** The section with this canonical name (see canonicalSectionName), if documented. */
export function findSection(fn: DocFunction, name: string): DocSection | undefined {
  const wanted = canonicalSectionName(name);
  return fn.sections.find((section) => canonicalSectionName(section.name) === wanted);
}
