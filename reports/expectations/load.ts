import { type Document, isMap, isPair, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import type { z } from 'zod';
import { UserError } from '../../spec/errors.js';
import { readInputFile } from '../../spec/input-file.js';
import { type ExpectationEntry, ExpectationsFile, expectationKey } from './schema.js';

/** An entry of an expectations file and where it is written (`file:line`), for error messages and reports. */
export type Expectation = ExpectationEntry & { source: string };

export interface LoadOptions {
  /** Every clause id and case id: an entry naming anything else is a typo or a removed id. */
  knownIds: { has(id: string): boolean };
  /** YYYY-MM-DD; an entry that expires before this day is an error. */
  today: string;
}

interface Problem {
  line: number;
  message: string;
}

type Path = readonly PropertyKey[];

/** The line of the deepest node of `path` that exists (a missing key is reported at its parent). */
function lineOf(doc: Document, lines: LineCounter, path: Path, key?: string): number {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth) as unknown[], true);
    if (node === undefined || node === null) continue;
    if (key !== undefined && depth === path.length && isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key);
      if (pair && isScalar(pair.key) && pair.key.range) return lines.linePos(pair.key.range[0]).line;
    }
    const range = (node as { range?: [number, number, number] }).range;
    if (range) return lines.linePos(range[0]).line;
  }
  return 1;
}

function schemaProblems(doc: Document, lines: LineCounter, issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      // a mapping of thousands of stray keys names the first few, not all
      const keys = `${issue.keys.slice(0, 5).map((k) => `'${k}'`).join(', ')}${issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : ''}`;
      return { line: lineOf(doc, lines, issue.path, issue.keys[0]), message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${keys}${where ? ` in ${where}` : ''}` };
    }
    const missing = doc.getIn(issue.path as unknown[], true) === undefined;
    const message = missing ? `missing '${String(issue.path.at(-1))}'` : `${where || 'the file'}: ${issue.message}`;
    return { line: lineOf(doc, lines, issue.path), message };
  });
}

/** Entries that parse but cannot be right: an unknown id, an expiry in the past, an entry an earlier one hides. */
function entryProblems(doc: Document, lines: LineCounter, entries: readonly ExpectationEntry[], options: LoadOptions): Problem[] {
  const problems: Problem[] = [];
  const unconditional = new Map<string, number>();
  entries.forEach((entry, index) => {
    const at = (key: string) => lineOf(doc, lines, ['expectations', index, key]);
    if (entry.id !== undefined && !options.knownIds.has(entry.id)) {
      problems.push({ line: at('id'), message: `unknown id '${entry.id}': no clause or case has it (see 'rvt-conform list')` });
    }
    if (entry.expires !== undefined && entry.expires < options.today) {
      problems.push({ line: at('expires'), message: `expired on ${entry.expires}: re-check the deviation, then renew the date or remove the entry` });
    }
    const key = expectationKey(entry);
    const keyField = entry.id === undefined ? 'capability' : 'id';
    const earlier = unconditional.get(key);
    if (earlier !== undefined) {
      problems.push({ line: at(keyField), message: `never applies: the entry for '${key}' at line ${earlier} has no 'when' and comes first` });
    } else if (entry.when === undefined) {
      unconditional.set(key, at(keyField));
    }
  });
  return problems;
}

function fail(file: string, problems: readonly Problem[]): never {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  throw new UserError(sorted.map((p) => `${file}:${p.line}: ${p.message}`).join('\n'), {
    hint:
      'the file is `expectations:` and a list of entries, each with id, status (fail, error, skip or not-observable), reason and link ' +
      '(or, to waive an unsupported optional feature, capability and status skip); optional: expires (YYYY-MM-DD) and when (adapter, device, driver, profile, kernel)',
  });
}

/**
 * The largest expectations file read. Real ones are a few kB; yaml's Document costs about a second
 * and hundreds of MB per MB of text (a 29 MB file took 95 s and 1.9 GB), for no use.
 */
export const MAX_EXPECTATIONS_BYTES = 1024 * 1024;

/** Aliases may share a `when`; more than this many is an alias bomb, not an expectations file. */
export const MAX_ALIAS_COUNT = 100;

/** The document as plain data, or the line of the alias that expands too far. */
function plainData(doc: Document, file: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml throws a ReferenceError for an alias that expands beyond maxAliasCount (a resource exhaustion attack)
    if (!(error instanceof ReferenceError)) throw error;
    return fail(file, [{ line: 1, message: `aliases expand beyond ${MAX_ALIAS_COUNT} nodes (${error.message}): write the entries out instead` }]);
  }
}

/**
 * Keys given twice in one mapping, found with a set per mapping: yaml's own check (uniqueKeys)
 * compares every key with every earlier one, quadratic in the keys of a mapping.
 */
function duplicateKeys(doc: Document, lines: LineCounter): Problem[] {
  const problems: Problem[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const name = isScalar(key) ? key.value : String(key);
        if (seen.has(name)) problems.push({ line: isScalar(key) && key.range ? lines.linePos(key.range[0]).line : 1, message: `duplicate key '${String(name)}'` });
        seen.add(name);
      }
    },
  });
  return problems;
}

/** Parses an expectations file; every problem is reported at once, each with its file:line (a UserError, exit 2). */
export function parseExpectations(text: string, file: string, options: LoadOptions): Expectation[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: false });
  const invalid = [...doc.errors.map((e) => ({ line: lines.linePos(e.pos[0]).line, message: `not valid YAML: ${e.message}` })), ...duplicateKeys(doc, lines)];
  if (invalid.length > 0) fail(file, invalid);
  if (doc.contents === null) fail(file, [{ line: 1, message: 'the file is empty' }]);
  const parsed = ExpectationsFile.safeParse(plainData(doc, file));
  if (!parsed.success) fail(file, schemaProblems(doc, lines, parsed.error.issues));
  const entries = parsed.data.expectations;
  const problems = entryProblems(doc, lines, entries, options);
  if (problems.length > 0) fail(file, problems);
  return entries.map((entry, index) => ({ ...entry, source: `${file}:${lineOf(doc, lines, ['expectations', index])}` }));
}

/** The text of an expectations file, refused unread if it cannot be one (a FIFO, a huge file): a UserError. */
export async function readExpectationsText(file: string): Promise<string> {
  return readInputFile(file, {
    what: 'the expectations file',
    maxBytes: MAX_EXPECTATIONS_BYTES,
    hint: 'give the path of a YAML file such as expectations/rxe.yaml (an expectations file lists deviations, a few kB)',
  }).toString('utf8');
}

export async function loadExpectations(file: string, options: LoadOptions): Promise<Expectation[]> {
  return parseExpectations(await readExpectationsText(file), file, options);
}
