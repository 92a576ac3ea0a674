import { createHash } from 'node:crypto';
import type { CaseResult, ClauseResult, RunResults } from '../results-schema.js';
import { snapshotKernel, sourceLocations } from '../where.js';
import { isKernelLog, type KernelSplat, logLinesOf, normaliseSplatLine, splatOf } from './kernel-log.js';
import { draftReport } from './report.js';
import { placeReproducers, reproducerOf } from './reproducers.js';
import { type BrokenClause, type Finding, type FindingsRun, type Location, type Reproducer, Severity, type Sighting } from './schema.js';

/** A results.json read back, with the path it was read from. */
export interface LoadedRun {
  path: string;
  results: RunResults;
}

/** One case of one run that shows a defect, before sightings of the same defect are merged. */
interface Occurrence {
  run: number;
  kase: CaseResult;
  severity: Severity;
  key: string;
  title: string;
  /** The clauses it broke (for a contract finding, those that bind the run; for a crash or a hang, those the case names). */
  clauses: string[];
  splat: KernelSplat | undefined;
  log: string[] | undefined;
}

/** The kind of device, as its name says it (rxe0, rxe1 -> rxe; rvt_sim0 -> rvt_sim): one driver's defect is the same on each of its devices. */
const deviceKind = (results: RunResults) => results.adapter.device.name.replace(/\d+$/, '');

/** A crash's reason without what differs between runs (the worker's pid, the case it was in). */
const crashWords = (reason: string) =>
  reason
    .replace(/^the implementation crashed: /, '')
    .replace(/ \(pid \d+\)/g, '')
    .replace(/ in \S+$/, '');

/** Which clauses a case broke: those of its failed checks. */
const brokenClauses = (kase: CaseResult) => [...new Set(kase.checks.filter((c) => c.status === 'fail').map((c) => c.clause))].sort();

/** The verbs call a crash happened in, as the layer names it: `postRecv` -> ibv_post_recv (libibverbs), ib_post_recv (kernel). */
const callName = (call: string, layer: RunResults['adapter']['layer']) => `${layer === 'libibverbs' ? 'ibv' : 'ib'}_${call.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;

/** A splat in a line: the function it is in, then what the kernel said, without what differs between boots. */
function splatTitle(splat: KernelSplat): string {
  const said = splat.message ?? splat.first;
  const short = /^WARNING:/.test(said)
    ? 'WARNING'
    : normaliseSplatLine(said)
        .replace(/ at \S+\.[ch]\b/g, '')
        .replace(/ ?\(size N\)/g, '')
        .replace(/,? (for )?address: ADDR$/, '');
  return splat.function === undefined ? short : `${splat.function}: ${short}`;
}

/**
 * What a case of a run shows, when it shows a defect: a kernel splat (whatever else failed: the
 * splat is the finding), a crash, a case that never came back, or broken clauses that bind the
 * run (a reference clause under the documented profile is rdmavt's choice, not a contract). A
 * pass, a skip, a harness error or an unexpected pass shows none.
 */
function occurrenceOf(run: number, results: RunResults, kase: CaseResult, binding: ReadonlySet<string>): Occurrence | undefined {
  const log = logLinesOf(kase);
  const splat = log === undefined ? undefined : splatOf(log);
  const base = { run, kase, splat, log, clauses: brokenClauses(kase) };
  if (splat !== undefined) return { ...base, severity: splat.severity, key: `kernel: ${splat.signature}`, title: splatTitle(splat) };
  const device = deviceKind(results);
  if (kase.ran === 'crash') {
    const words = crashWords(kase.reason ?? 'the implementation crashed');
    const call = /during (\w+)/.exec(words)?.[1];
    const signal = /\bSIG[A-Z]+\b/.exec(words)?.[0] ?? 'crash';
    const title = `${signal}${call === undefined ? '' : ` in ${callName(call, results.adapter.layer)}`}: ${kase.title}`;
    // the case never got to check its clauses: they are what the crash broke
    return { ...base, clauses: [...kase.clauses].sort(), severity: 'crash', key: `crash: ${device} ${kase.id} ${words}`, title };
  }
  if (kase.ran === 'timeout') {
    return { ...base, clauses: [...kase.clauses].sort(), severity: 'lockup', key: `timeout: ${device} ${kase.id}`, title: `${kase.verb}: never came back: ${kase.title}` };
  }
  if (kase.status !== 'fail' && kase.status !== 'xfail') return undefined;
  const clauses = brokenClauses(kase).filter((id) => binding.has(id));
  if (clauses.length === 0) return undefined;
  return { ...base, clauses, severity: 'contract', key: `contract: ${device} ${kase.id} ${clauses.join(' ')}`, title: `${kase.verb}: ${kase.title}` };
}

export function runOf({ path, results }: LoadedRun): FindingsRun {
  const { adapter, environment } = results;
  return {
    path,
    kernel: environment.vm?.kernel.release ?? adapter.device.kernel ?? null,
    kernelForm: environment.vm?.kernel.form ?? null,
    kernelConfig: environment.vm?.kernel.configHash ?? null,
    device: adapter.device.name,
    driver: adapter.device.driver ?? null,
    provider: adapter.device.provider ?? null,
    layer: adapter.layer,
    adapter: adapter.adapter,
    profile: results.run.profile,
    startedAt: results.run.startedAt,
  };
}

/** The clause as the first run that records it has it, with each source located and quoted. */
function brokenClause(id: string, runs: readonly LoadedRun[]): { clause: BrokenClause; where: Location[] } {
  const results = runs.find((r) => r.results.clauses.some((c) => c.id === id))?.results;
  const clause = results?.clauses.find((c) => c.id === id);
  if (results === undefined || clause === undefined) return { clause: { id, statement: '(not recorded)', level: 'unknown', sources: [] }, where: [] };
  const located = sourceLocations(clause, results);
  const sources = located.map((s, index) => {
    const quote = clause.citations?.find((c) => c.source === index)?.text;
    return { text: s.text, ...(quote === undefined ? {} : { quote }), ...(s.href === undefined ? {} : { href: s.href }) };
  });
  return { clause: { id, statement: clause.statement, level: clause.level, sources }, where: codeLocations(clause, results, located) };
}

function codeLocations(clause: ClauseResult, results: RunResults, located: ReturnType<typeof sourceLocations>): Location[] {
  return clause.sources.flatMap((source, index): Location[] => {
    if (source.kind !== 'kernel-doc' && source.kind !== 'kernel-code') return [];
    const line = clause.citations?.find((c) => c.source === index)?.line ?? null;
    const href = located[index]?.href;
    return [{ kernel: snapshotKernel(results) ?? null, file: source.file, line, function: source.function, module: null, from: 'clause', ...(href === undefined ? {} : { href }) }];
  });
}

/** An expectation's link into a kernel tree (`.../tree/drivers/...qp.c?h=v6.1#n2161`) as a location. */
function linkLocation(link: string): Location | undefined {
  const match = /\/tree\/([^?#]+\.[ch])(?:\?h=v?([\w.+-]+))?(?:#n(\d+))?/.exec(link);
  if (match === null) return undefined;
  return { kernel: match[2] ?? null, file: match[1] as string, line: match[3] === undefined ? null : Number(match[3]), function: null, module: null, from: 'expectation', href: link };
}

/** The first of each key, in order. */
function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keys = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (keys.has(k)) return false;
    keys.add(k);
    return true;
  });
}

const findingId = (key: string) => `F${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;

const ranAtAll = (kase: CaseResult) => kase.status !== 'skip' && kase.ran !== 'not-run' && kase.ran !== 'capability-missing';

/** The reproducers: one per layer it was seen through, each from the first run that saw it there. */
function reproducers(occurrences: readonly Occurrence[], runs: readonly LoadedRun[]): Reproducer[] {
  return uniqueBy(occurrences, (o) => runs[o.run]?.results.adapter.layer ?? '').map((o) => {
    const { path, results } = runs[o.run] as LoadedRun;
    return reproducerOf(results, o.kase.id, path, o.run);
  });
}

/** Which finding each case of each run belongs to, by `run case`. */
type Owners = ReadonlyMap<string, string>;

function finding(key: string, occurrences: readonly Occurrence[], runs: readonly LoadedRun[], described: readonly FindingsRun[], owners: Owners): Finding {
  const first = occurrences[0] as Occurrence;
  const id = findingId(key);
  const cases = [...new Set(occurrences.map((o) => o.kase.id))];
  const clauseIds = [...new Set(occurrences.flatMap((o) => o.clauses))].sort();
  const broken = clauseIds.map((c) => brokenClause(c, runs));
  const seen: Sighting[] = occurrences.map((o) => ({ run: o.run, case: o.kase.id, status: o.kase.status, ran: o.kase.ran }));
  const seenRuns = new Set(occurrences.map((o) => o.run));
  const notSeen = runs.flatMap(({ results }, run): Sighting[] =>
    seenRuns.has(run) ? [] : results.cases
      .filter((k) => cases.includes(k.id) && ranAtAll(k))
      .map((k) => {
        const other = owners.get(`${run} ${k.id}`);
        return { run, case: k.id, status: k.status, ran: k.ran, ...(other === undefined ? {} : { otherFinding: other }) };
      }),
  );
  const expectations = uniqueBy(
    occurrences.flatMap((o) => (o.kase.status === 'xfail' && o.kase.expectation !== undefined ? [o.kase.expectation] : [])),
    (e) => e.source,
  );
  const fromLog = occurrences.flatMap((o): Location[] =>
    o.splat === undefined || (o.splat.file === undefined && o.splat.function === undefined)
      ? []
      : [{ kernel: described[o.run]?.kernel ?? null, file: o.splat.file ?? null, line: o.splat.line ?? null, function: o.splat.function ?? null, module: o.splat.module ?? null, from: 'kernel-log' }],
  );
  const fromLinks = expectations.flatMap((e) => linkLocation(e.link) ?? []);
  const where = uniqueBy([...fromLog, ...broken.flatMap((b) => b.where), ...fromLinks], (l) => `${l.from} ${l.kernel} ${l.file} ${l.line} ${l.function}`);
  const log = uniqueBy(
    occurrences.filter((o) => o.log !== undefined),
    (o) => described[o.run]?.kernel ?? '',
  ).map((o) => ({ run: o.run, case: o.kase.id, lines: o.log as string[] }));
  const checks = first.kase.checks
    .filter((c) => c.status === 'fail' && !isKernelLog(c.actual))
    .map((c) => ({ case: first.kase.id, clause: c.clause, what: c.what, expected: c.expected, actual: c.actual }));
  const partial = {
    id,
    key,
    severity: first.severity,
    title: first.title,
    known: expectations.length > 0,
    expectations,
    cases,
    clauses: broken.map((b) => b.clause),
    where,
    seen,
    notSeen,
    checks,
    ...(first.kase.reason === undefined ? {} : { reason: first.kase.reason }),
    log,
    reproducers: reproducers(occurrences, runs),
  };
  return { ...partial, report: draftReport(partial, described) };
}

const RANK = Severity.options;

/**
 * The defects a set of runs shows, one finding per defect however many runs, kernels, devices or
 * layers saw it; worst first, then the most often seen. A case that passed everywhere is none; an
 * expected failure is one (a known defect, with its expectation's evidence).
 */
export function collectFindings(runs: readonly LoadedRun[]): { runs: FindingsRun[]; findings: Finding[] } {
  const described = runs.map(runOf);
  const byKey = new Map<string, Occurrence[]>();
  runs.forEach(({ results }, run) => {
    const binding = new Set(results.clauses.filter((c) => c.binding).map((c) => c.id));
    for (const kase of results.cases) {
      const occurrence = occurrenceOf(run, results, kase, binding);
      if (occurrence === undefined) continue;
      const list = byKey.get(occurrence.key);
      if (list === undefined) byKey.set(occurrence.key, [occurrence]);
      else list.push(occurrence);
    }
  });
  const owners = new Map([...byKey].flatMap(([key, occurrences]) => occurrences.map((o) => [`${o.run} ${o.kase.id}`, findingId(key)] as const)));
  const findings = [...byKey].map(([key, occurrences]) => finding(key, occurrences, runs, described, owners));
  findings.sort((a, b) => RANK.indexOf(a.severity) - RANK.indexOf(b.severity) || b.seen.length - a.seen.length || a.key.localeCompare(b.key));
  return { runs: described, findings: placeReproducers(findings) };
}
