import { cComment } from './c-syntax.js';
import { UserError } from '../../spec/errors.js';
import type { Source } from '../../spec/clauses/schema.js';
import type { CaseResult, ClauseResult, RunResults } from '../results-schema.js';

/**
 * What every reproducer says about the case it replays, whatever layer it is written for: which
 * recording, on which device, and what the clauses expected where the recording broke them.
 */

/** The case to replay, with the calls to replay: a case that made none has nothing to reproduce. */
export function caseToReplay(results: RunResults, caseId: string, from: string): CaseResult {
  const kase = results.cases.find((c) => c.id === caseId);
  if (kase === undefined) {
    throw new UserError(`${from} has no case '${caseId}'`, { hint: `its cases: ${results.cases.map((c) => c.id).join(', ') || 'none'}` });
  }
  if (kase.trace.length === 0) {
    throw new UserError(`case ${caseId} made no verbs calls in ${from} (${kase.status}${kase.reason ? `: ${kase.reason}` : ''}): there is nothing to replay`);
  }
  return kase;
}

/** The device a recording was made on, as a reader names it: its name, then what drives it. */
export function deviceOf(results: RunResults): string {
  const { device, adapter, layer } = results.adapter;
  const drivenBy = [device.driver && `driver ${device.driver}`, device.provider && `provider ${device.provider}`, device.rdma_core && `rdma-core ${device.rdma_core}`, device.kernel && `kernel ${device.kernel}`];
  const details = drivenBy.filter(Boolean).join(', ');
  return `device ${device.name}${details ? ` (${details})` : ''}, through the ${adapter} adapter (${layer} layer)`;
}

/** How the harness names the check that the kernel log stayed clean (adapters/kernel/adapter.ts). */
export const SPLAT_CHECK = /^the kernel (logged a splat|oopsed) while the case ran$/;

type Check = CaseResult['checks'][number];

/** A recorded splat in a line: its first lines past the "cut here" marker, without their timestamps (results.json has them all). */
const splatSummary = (lines: unknown): string =>
  Array.isArray(lines)
    ? lines
        .map((l) => String(l).replace(/^\[\s*[\d.]+\]\s*/, ''))
        .filter((l) => !l.includes('cut here'))
        .slice(0, 2)
        .join(' / ')
    : JSON.stringify(lines);

/** Where a JSON value is long, its first part is enough for a line: the recording has the rest. */
const brief = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
};

/** A failed check in a line: what it expected, what the recording got. */
export const checkLine = (k: Check): string =>
  `clause ${k.clause} (${k.what}) expects ${brief(k.expected)}; the recording got ${SPLAT_CHECK.test(k.what) ? splatSummary(k.actual) : brief(k.actual)}`;

/** What the clauses expect where the recording broke them: the verdict the replay is about. */
export function verdictLines(kase: CaseResult): string[] {
  const failed = kase.checks.filter((k) => k.status === 'fail');
  if (failed.length === 0) return [`in the recording the case ended ${kase.status}${kase.reason ? ` (${kase.reason})` : ''}`];
  return failed.map(checkLine);
}

/** The clauses the case checks and, of them, those the recording broke (each once, in check order). */
export function clauseCounts(kase: CaseResult): { checked: string[]; broken: string[] } {
  const distinct = (ids: string[]) => [...new Set(ids)];
  return {
    checked: distinct([...kase.clauses, ...kase.checks.map((k) => k.clause)]),
    broken: distinct(kase.checks.filter((k) => k.status === 'fail').map((k) => k.clause)),
  };
}

/** A source as a reader finds it: `kernel-doc drivers/.../qp.c rvt_post_srq_recv Return`, `man-page ibv_post_recv(3) RETURN VALUE`. */
function sourceName(source: Source): string {
  switch (source.kind) {
    case 'kernel-doc':
      return `kernel-doc ${source.file} ${source.function}() ${source.section}`;
    case 'kernel-code':
      return `kernel code ${source.file} ${source.function}()`;
    case 'man-page':
      return `${source.page} ${source.section}`;
    case 'ib-spec':
      return `IB spec ${source.ref}`;
    case 'kernel-docs':
      return `${source.file} ${source.section}`;
  }
}

/** What the sources say for a clause: the clause's statement and, where the results quote one, the source's own words and where they are. */
export interface ClauseWords {
  statement: string;
  quote: { text: string; where: string } | undefined;
}

/** The kernel-doc text the spec snapshot cites first, else a man page's quote, else the note of the code or spec the clause rests on. */
export function clauseWords(results: RunResults, clauseId: string): ClauseWords {
  const clause: ClauseResult | undefined = results.clauses.find((c) => c.id === clauseId);
  if (clause === undefined) return { statement: '(the clause is not in this results.json)', quote: undefined };
  const citation = clause.citations?.[0];
  const cited = citation === undefined ? undefined : clause.sources[citation.source];
  if (citation !== undefined && cited !== undefined) {
    return { statement: clause.statement, quote: { text: citation.text, where: `${sourceName(cited)}${citation.line === undefined ? '' : `, comment at line ${citation.line}`}` } };
  }
  const words = (source: Source): string | undefined => (source.kind === 'man-page' || source.kind === 'kernel-docs' ? source.quote : source.kind === 'kernel-doc' ? undefined : source.note);
  const source = clause.sources.find((s) => s.kind === 'man-page') ?? clause.sources.find((s) => words(s) !== undefined);
  const text = source === undefined ? undefined : words(source);
  return { statement: clause.statement, quote: source === undefined || text === undefined ? undefined : { text, where: sourceName(source) } };
}

/** The comment lines both reproducers open with: who wrote it from what, the case, where it was recorded and how it ended. */
export function recordedHeader(results: RunResults, kase: CaseResult, from: string): string[] {
  return [
    ` * Reproducer written by rvt-conform ${results.tool.version} from ${cComment(from)}`,
    ` * case:     ${cComment(`${kase.id}: ${kase.title}`)}`,
    ` * recorded: ${cComment(deviceOf(results))}`,
    ` *           ${cComment(results.adapter.implementation)}; profile ${results.run.profile}; the case ended ${kase.status}`,
    ...verdictLines(kase).map((line) => ` *           ${cComment(line)}`),
  ];
}
