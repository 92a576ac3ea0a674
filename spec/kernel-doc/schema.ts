import { z } from 'zod';

/**
 * The shape of a kernel-doc comment (Documentation/doc-guide/kernel-doc.rst) on a function,
 * struct, union, enum or typedef, as read from C source (parse.ts) or from a `kernel-doc -man`
 * page (man.ts).
 */

/**
 * `@wr: the list of work requests to post`: a parameter, or a member of a struct or union (a
 * nested one as the script names it, `@attr.max_wr`; an anonymous one's by its own name) or an
 * enum constant.
 */
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

/**
 * What a comment documents. A typedef of a function (pointer) is a 'function', as the script
 * documents it; 'typedef' is any other typedef.
 */
export const DocKind = z.enum(['function', 'struct', 'union', 'enum', 'typedef']);
export type DocKind = z.infer<typeof DocKind>;

/** One documented entry. The defaults keep snapshots pinned before types were read valid. */
export const DocEntry = z.object({
  /** Without `struct`/`union`/`enum`/`typedef`: `ib_srq_attr`. */
  name: z.string(),
  kind: DocKind.default('function'),
  file: z.string(),
  /** Line of the opening `/**` (of the `.TH` request for a man page), 1-based. */
  line: z.number().int().positive(),
  brief: z.string(),
  /** A function's documented parameters, in declaration order; none for a type. */
  params: z.array(DocParam),
  /** A type's documented members (constants of an enum) in declaration order; none for a function. */
  members: z.array(DocParam).default([]),
  /** The long description, raw text with the comment's ` * ` prefixes removed. */
  description: z.string(),
  sections: z.array(DocSection),
  /** A function's declaration; null for a type, or a page without SYNOPSIS. */
  signature: Signature.nullable(),
});
export type DocEntry = z.infer<typeof DocEntry>;

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
export function findSection(fn: DocEntry, name: string): DocSection | undefined {
  const wanted = canonicalSectionName(name);
  return fn.sections.find((section) => canonicalSectionName(section.name) === wanted);
}
