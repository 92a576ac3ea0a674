import { z } from 'zod';
import { Capability, Profile } from '../../adapters/adapter.js';
import { kernelRangeProblem } from '../../spec/kernel-release.js';

/**
 * What an expectation can announce for a clause or a case: everything but a pass. An expectation
 * says "this implementation is known to end here", so a known deviation does not fail the gate
 * and a fixed one is noticed (it becomes an xpass).
 */
export const ExpectedStatus = z.enum(['fail', 'error', 'skip', 'not-observable']);
export type ExpectedStatus = z.infer<typeof ExpectedStatus>;

const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);

/**
 * Conditions on the run info, in the spirit of wptrunner's `if os == "linux"`: every key given
 * must match, and a list matches any of its values. Keys name what results.json records.
 */
export const When = z
  .strictObject({
    adapter: oneOrMore(z.string().min(1)).optional().describe('the --adapter name, e.g. rxe'),
    device: oneOrMore(z.string().min(1)).optional().describe('the device name, e.g. rxe0'),
    driver: oneOrMore(z.string().min(1)).optional().describe('the device driver, e.g. rdma_rxe'),
    profile: oneOrMore(Profile).optional(),
    kernel: z
      .string()
      .refine((range) => kernelRangeProblem(range) === undefined, { error: (issue) => kernelRangeProblem(String(issue.input)) ?? 'not a kernel range' })
      .optional()
      .describe('the release of the kernel the device runs on, as a range: ">=6.12", "<6.12", "6.1" (every 6.1.x), comparators space-separated'),
  })
  .describe('run-info conditions: all must hold');
export type When = z.infer<typeof When>;

/**
 * SRQs are what rvt-conform is about (rvt_post_srq_recv first): a device without them cannot pass
 * its gate by a waiver; it can still be run on the other verbs with --case (a partial run).
 */
export const UNWAIVABLE: readonly Capability[] = ['srq'];

/**
 * One entry: by `id`, the known outcome of a clause or case; by `capability`, a waiver for an
 * optional feature the device does not support (status skip): clauses skipped only for lacking
 * it no longer fail the gate, and the headline still counts them.
 */
/**
 * What `rvt-conform expectations draft` leaves where a person has to write: the file it drafts does
 * not load until each is replaced, so no entry waives a failure without someone saying why.
 */
export const PLACEHOLDER = 'TODO';
const isWritten = (text: string) => !text.trimStart().startsWith(PLACEHOLDER);
const placeholderLeft = (what: string) => `write ${what}: '${PLACEHOLDER}' is the placeholder 'rvt-conform expectations draft' leaves for a person`;

export const ExpectationEntry = z
  .strictObject({
    id: z.string().min(1).optional().describe('a clause id (verb.topic.detail) or a case id (verb/name)'),
    capability: Capability.optional().describe('an optional feature the device does not support (status: skip), instead of id'),
    status: ExpectedStatus,
    reason: z.string().min(1).refine(isWritten, { error: placeholderLeft('why the implementation ends so') }).describe('why the implementation ends so, in a sentence'),
    link: z
      .url({ protocol: /^https?$/, error: (issue) => (typeof issue.input === 'string' && !isWritten(issue.input) ? placeholderLeft('the link to what shows it') : undefined) })
      .describe('the bug, mailing-list thread or source line that shows it'),
    expires: z.iso.date().optional().describe('YYYY-MM-DD: after this day the entry is an error, so it gets re-checked'),
    when: When.optional(),
  })
  .check((ctx) => {
    const { id, capability, status } = ctx.value;
    if ((id === undefined) === (capability === undefined)) {
      ctx.issues.push({ code: 'custom', input: ctx.value, path: [], message: "give either 'id' (a clause or case) or 'capability' (a waived feature), not both or neither" });
    }
    if (capability !== undefined && UNWAIVABLE.includes(capability)) {
      ctx.issues.push({ code: 'custom', input: capability, path: ['capability'], message: `'${capability}' cannot be waived: the SRQ clauses are the core of the contract (run the other verbs with --case, a partial run)` });
    }
    if (capability !== undefined && status !== 'skip') {
      ctx.issues.push({ code: 'custom', input: status, path: ['status'], message: "a capability waiver has status 'skip': the clauses that need it are not run" });
    }
  });
export type ExpectationEntry = z.infer<typeof ExpectationEntry>;

/** The key an entry applies under: a clause or case id, or `capability:<name>` for a waiver. */
export const expectationKey = (entry: Pick<ExpectationEntry, 'id' | 'capability'>): string => entry.id ?? `capability:${entry.capability}`;

/** An expectations file (e.g. expectations/rxe.yaml): the first entry for an id whose `when` holds applies. */
export const ExpectationsFile = z
  .strictObject({ expectations: z.array(ExpectationEntry) })
  .meta({ title: 'rvt-conform expectations', description: 'Known outcomes of one implementation, keyed by clause or case id.' });
export type ExpectationsFile = z.infer<typeof ExpectationsFile>;

/** An expectation as results.json records it where it applied: the entry and where it is written. */
export const AppliedExpectation = z.object({
  id: z.string(),
  status: ExpectedStatus,
  reason: z.string(),
  link: z.string(),
  expires: z.string().optional(),
  /** `file:line` of the entry. */
  source: z.string(),
});
export type AppliedExpectation = z.infer<typeof AppliedExpectation>;
