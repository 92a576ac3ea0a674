import { Document, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { z } from 'zod';
import { Capability } from '../../adapters/adapter.js';
import { UserError } from '../../spec/errors.js';
import type { RunResults } from '../results-schema.js';
import type { Draft, DraftEntry } from './draft.js';
import { conditionsHold, runInfoOf } from './match.js';
import { MAX_ALIAS_COUNT } from './load.js';
import { expectationKey, When } from './schema.js';

/** What a draft changed in the file, for the command's one line. */
export interface DraftOutcome {
  text: string;
  added: number;
  /** Keys of entries marked as no longer applying or as ending otherwise. */
  marked: string[];
}

/** Marks this command writes after an entry's id; the next update replaces them. */
const MARK = 'rvt-conform:';

/**
 * What --update needs of the file it merges into: the entries' keys, statuses and conditions. The
 * rest is left as it is (a reason still TODO included), and the loader checks it when a run reads it.
 */
const ExistingFile = z.object({
  expectations: z.array(z.looseObject({ id: z.string().optional(), capability: Capability.optional(), status: z.string(), when: When.optional() })),
});

const entryNode = (doc: Document, entry: DraftEntry, first: boolean) => {
  const { evidence, ...fields } = entry;
  const node = doc.createNode(fields) as YAMLMap;
  // evidence: comments above the entry, for the person who writes the reason
  node.commentBefore = evidence.map((line) => ` ${line}`).join('\n');
  node.spaceBefore = !first;
  return node;
};

/** The header of a drafted file: where it comes from and what is left to do. */
export function draftHeader(results: RunResults, from: string, notes: readonly string[]): string {
  const device = results.adapter.device;
  return [
    `Drafted by 'rvt-conform expectations draft' from ${from}: ${results.adapter.adapter} on ${device.name}${device.driver ? ` (${device.driver})` : ''}, profile ${results.run.profile}, ${results.run.startedAt.slice(0, 10)}.`,
    'An entry for each binding clause the run left failing or unverified, what the run saw above it.',
    "Write each reason (and each link left TODO): the file does not load while a TODO is left in it.",
    ...notes.map((note) => `Not drafted: ${note}.`),
  ]
    .map((line) => ` ${line}`)
    .join('\n');
}

/** A new expectations file with the draft's entries. */
export function newDraftFile(draft: Draft, header: string): DraftOutcome {
  const doc = new Document({ expectations: [] });
  doc.commentBefore = header;
  const seq = doc.get('expectations', true);
  if (!isSeq(seq)) throw new Error('a new document has its expectations sequence');
  draft.entries.forEach((entry, index) => seq.items.push(entryNode(doc, entry, index === 0)));
  return { text: doc.toString({ lineWidth: 0 }), added: draft.entries.length, marked: [] };
}

/** The result status of an id in this run: a clause's or a case's. */
function statusOf(results: RunResults, id: string): string | undefined {
  return (results.clauses.find((c) => c.id === id) ?? results.cases.find((c) => c.id === id))?.status;
}

/** Why an entry that applied to this run does not fit it any more, or undefined. */
function misfit(entry: z.infer<typeof ExistingFile>['expectations'][number], drafted: DraftEntry | undefined, results: RunResults): string | undefined {
  const date = results.run.startedAt.slice(0, 10);
  if (entry.capability !== undefined) {
    return results.adapter.capabilities.includes(entry.capability) ? `no longer applies: the device has ${entry.capability} in the run of ${date}; remove this entry` : undefined;
  }
  const status = entry.id === undefined ? undefined : statusOf(results, entry.id);
  if (status === 'pass' || status === 'xpass') return `no longer applies: it passed in the run of ${date}; remove this entry`;
  if (drafted !== undefined && drafted.status !== entry.status) return `the run of ${date} ended ${drafted.status}, not ${entry.status}: correct the status`;
  return undefined;
}

/** The document as data; undefined (refused as not an expectations file) where aliases expand too far. */
function plain(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return undefined;
  }
}

/**
 * Merges a draft into an existing expectations file, keeping its entries and comments: an entry
 * the run calls for is added unless one for its key already applied; an entry that applied and no
 * longer fits (its clause passed, the device has the feature, the run ended otherwise) gets a
 * comment after its id saying so, for a person to act on. Entries whose `when` excludes this run
 * are left alone: the run says nothing about them.
 */
export function mergeDraft(text: string, file: string, draft: Draft, results: RunResults): DraftOutcome {
  const doc = parseDocument(text, { prettyErrors: false });
  const seq = doc.get('expectations', true);
  const parsed = ExistingFile.safeParse(doc.errors.length === 0 ? plain(doc) : undefined);
  if (!parsed.success || !isSeq(seq)) {
    const why = doc.errors[0]?.message ?? parsed.error?.issues[0]?.message ?? 'no expectations list';
    throw new UserError(`${file} is not an expectations file to update: ${why.split('\n')[0]}`, {
      hint: "fix it (it is `expectations:` and a list of entries), or draft a new file with -o",
    });
  }
  const run = runInfoOf(results.adapter, results.run.profile);
  const drafted = new Map(draft.entries.map((entry) => [expectationKey(entry), entry]));
  const applied = new Set<string>();
  const marked: string[] = [];
  parsed.data.expectations.forEach((entry, index) => {
    const key = expectationKey(entry);
    const node = seq.items[index];
    if (!isMap(node) || applied.has(key) || !conditionsHold(entry.when, run)) return;
    applied.add(key);
    const keyNode = node.get(entry.id === undefined ? 'capability' : 'id', true);
    if (!isScalar(keyNode)) return;
    if (keyNode.comment?.trimStart().startsWith(MARK)) keyNode.comment = undefined;
    const why = misfit(entry, drafted.get(key), results);
    if (why === undefined) return;
    keyNode.comment = ` ${MARK} ${why}`;
    marked.push(key);
  });
  const added = draft.entries.filter((entry) => !applied.has(expectationKey(entry)));
  seq.flow = false;
  added.forEach((entry) => seq.items.push(entryNode(doc, entry, seq.items.length === 0)));
  return { text: doc.toString({ lineWidth: 0 }), added: added.length, marked };
}
