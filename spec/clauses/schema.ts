import { z } from 'zod';

/** Where a clause comes from. A reader of a report follows this back to the text. */
export const Source = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('kernel-doc'),
    file: z.string(),
    function: z.string(),
    /** `Return`, `Context`, ... as the comment names it, `description`, `brief`, or `@param`. */
    section: z.string(),
  }),
  z.object({
    kind: z.literal('kernel-code'),
    file: z.string(),
    function: z.string(),
    /** What the code does, in a sentence; the code itself is the authority. */
    note: z.string(),
  }),
  z.object({
    kind: z.literal('man-page'),
    page: z.string(),
    section: z.string(),
    quote: z.string(),
  }),
  z.object({
    /** The kernel's own documentation (Documentation/*.rst), quoted word for word. */
    kind: z.literal('kernel-docs'),
    file: z.string(),
    section: z.string(),
    quote: z.string(),
  }),
  z.object({
    kind: z.literal('ib-spec'),
    ref: z.string(),
    note: z.string(),
  }),
]);
export type Source = z.infer<typeof Source>;

/**
 * `documented` binds every implementation; `reference` is rdmavt's exact behaviour and binds
 * only under the rdmavt profile; `informative` never binds.
 */
export const Level = z.enum(['documented', 'reference', 'informative']);
export type Level = z.infer<typeof Level>;

export const ClauseId = z.string().regex(/^[a-z_]+(\.[a-z0-9_-]+)+$/, 'a clause id is verb.topic.detail in lower case');
export type ClauseId = z.infer<typeof ClauseId>;

/** The transport a device speaks: InfiniBand's (native IB and RoCE alike) or iWARP's. */
export const Transport = z.enum(['ib', 'iwarp']);
export type Transport = z.infer<typeof Transport>;

export const Clause = z.object({
  id: ClauseId,
  verb: z.string(),
  statement: z.string(),
  sources: z.array(Source).min(1),
  level: Level,
  /** The kernel functions whose behaviour the clause pins down (for the coverage report). */
  covers: z.array(z.string()).min(1),
  /** Why no user-facing adapter can observe this, when none can; otherwise absent. */
  notObservable: z.string().optional(),
  /** The transports whose rules the clause states (e.g. IB's QP state table); absent: every transport. */
  transports: z.array(Transport).min(1).optional(),
});
export type Clause = z.infer<typeof Clause>;
