import { join } from 'node:path';
import type { LoadedRun } from '../../../reports/findings/collect.js';
import { type CaseResult, RunResults } from '../../../reports/results-schema.js';
import type { Layer } from '../../../spec/layer.js';
import { casesNamed, resultsFor } from '../fixture.js';

/** The cases the findings tests shape into defects: each records verbs calls, so a reproducer renders. */
export const CASES = ['post_send/rdma-write', 'post_srq_recv/bad-wr-first', 'post_recv/srq-attached-rejected', 'post_srq_recv/single-wr'] as const;

let base: Promise<RunResults> | undefined;
/** One model run of CASES, made once per process; each caller gets its own copy. */
export async function modelRun(): Promise<RunResults> {
  base ??= resultsFor({ cases: casesNamed(...CASES) });
  return structuredClone(await base);
}

export interface Coordinates {
  kernel: string;
  device: string;
  layer: Layer;
  driver?: string;
  provider?: string;
  form?: 'installed' | 'staged' | 'tree';
}

/** A run as if recorded on a kernel, device and layer in the VM. */
export function recordedOn(results: RunResults, at: Coordinates): RunResults {
  const { kernel, device, layer, driver, provider, form = 'installed' } = at;
  return {
    ...results,
    adapter: {
      ...results.adapter,
      adapter: layer === 'kernel' ? 'kernel' : 'ibverbs',
      layer,
      device: { name: device, kernel, ...(driver === undefined ? {} : { driver }), ...(provider === undefined ? {} : { provider }) },
    },
    environment: { ...results.environment, kernel, vm: { kernel: { release: kernel, form, origin: kernel, configHash: 'abcdef012345' }, accel: 'tcg' } },
  };
}

/** A FORTIFY warning as the 6.1 kernel log had it (one boot's times, PIDs and addresses). */
export function fortifyLog(at: { time: number; pid: number; line: number; offset: string }): string[] {
  const t = (n: number) => `[${(at.time + n / 1e6).toFixed(6)}]`;
  return [
    `${t(0)} ------------[ cut here ]------------`,
    `${t(50)} memcpy: detected field-spanning write (size 56) of single field "&wqe->wr" at drivers/infiniband/sw/rdmavt/qp.c:${at.line} (size 40)`,
    `${t(90)} WARNING: CPU: 1 PID: ${at.pid} at drivers/infiniband/sw/rdmavt/qp.c:${at.line} rvt_post_send+${at.offset}/0x8a0 [rdmavt]`,
    `${t(120)} Modules linked in: rvt_sim(OE) rdmavt rvtc(OE) ib_uverbs ib_core`,
    `${t(130)} CPU: 1 PID: ${at.pid} Comm: node Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3`,
    `${t(140)} RIP: 0010:rvt_post_send+${at.offset}/0x8a0 [rdmavt]`,
    `${t(150)} RSP: 0018:ffffc9000059f8b8 EFLAGS: 00000086`,
    `${t(160)} Call Trace:`,
    `${t(170)}  rvtc_run_post+0xb6/0x130 [rvtc]`,
  ];
}

/** A NULL dereference in `fn`, as an oops logs it. */
export function oopsLog(fn: string): string[] {
  return [
    '[  41.000001] BUG: kernel NULL pointer dereference, address: 0000000000000008',
    '[  41.000002] #PF: supervisor read access in kernel mode',
    '[  41.000003] Oops: 0000 [#1] PREEMPT SMP NOPTI',
    `[  41.000004] RIP: 0010:${fn}+0x3c/0x8a0 [rdmavt]`,
    '[  41.000005] Call Trace:',
  ];
}

const SPLAT = 'the kernel logged a splat while the case ran';

/** The case as the runner leaves it when the kernel log showed `lines` while it ran: every clause fails with them. */
export function splatted(kase: CaseResult, lines: string[]): CaseResult {
  const checks = kase.clauses.map((clause) => ({ clause, what: SPLAT, status: 'fail' as const, expected: 'no splat (BUG, WARNING, oops, lockdep report, RCU stall) while the case ran', actual: lines }));
  return { ...kase, status: 'fail', checks: [...kase.checks, ...checks], reason: `${SPLAT}: ${lines[0]}`, splat: { problem: `${SPLAT}: ${lines[0]}`, fatal: false } };
}

/** The case as the runner leaves it when the ibverbs worker died in it. */
export function crashed(kase: CaseResult, pid: number, call: string): CaseResult {
  return { ...kase, status: 'error', ran: 'crash', reason: `the implementation crashed: the ibverbs worker (pid ${pid}) was killed by SIGSEGV during ${call} in ${kase.id}` };
}

/** The case with its first check of `clause` failed (expected 0, got "untouched"). */
export function broke(kase: CaseResult, clause: string): CaseResult {
  let done = false;
  const checks = kase.checks.map((c) => {
    if (done || c.clause !== clause) return c;
    done = true;
    return { ...c, status: 'fail' as const, expected: 0, actual: 'untouched' };
  });
  if (!done) throw new Error(`${kase.id} has no check of ${clause}`);
  return { ...kase, status: 'fail', checks };
}

/** The same, as an expectations file accepts it. */
export function expected(kase: CaseResult, source: string): CaseResult {
  return { ...kase, status: 'xfail', expectation: { id: kase.id, status: 'fail', reason: 'a known defect', link: 'https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/tree/drivers/infiniband/sw/rdmavt/qp.c?h=v6.1#n2041', source } };
}

/** `results` with the case `id` changed by `change`; the result is checked against the schema, as readResults would. */
export function withCase(results: RunResults, id: string, change: (kase: CaseResult) => CaseResult): RunResults {
  if (!results.cases.some((c) => c.id === id)) throw new Error(`no case ${id}`);
  return RunResults.parse({ ...results, cases: results.cases.map((c) => (c.id === id ? change(c) : c)) });
}

export const loaded = (runs: Record<string, RunResults>): LoadedRun[] => Object.entries(runs).map(([path, results]) => ({ path, results }));

const K61 = { kernel: '6.1.0-57-amd64', device: 'rvt_sim0', driver: 'rdmavt' } as const;
const K612 = { kernel: '6.12.118', device: 'rvt_sim0', driver: 'rdmavt', form: 'tree' } as const;

/**
 * Five runs, by path: the FORTIFY warning on 6.1 through both layers (a known defect in the kernel
 * layer's expectations) and a broken clause; on 6.12 those pass, an oops instead, the same crash
 * (another pid); the same crash on siw0, another library's.
 */
export async function sampleRuns(): Promise<Record<string, RunResults>> {
  const model = await modelRun();
  const kernel61 = recordedOn(model, { ...K61, layer: 'kernel' });
  const verbs61 = recordedOn(model, { kernel: K61.kernel, device: 'rvt_sim0', provider: 'ipathverbs', layer: 'libibverbs' });
  const siw = recordedOn(model, { kernel: K61.kernel, device: 'siw0', driver: 'siw', provider: 'siw', layer: 'libibverbs' });
  return {
    'k61/kernel/results.json': withCase(
      withCase(kernel61, 'post_send/rdma-write', (k) => expected(splatted(k, fortifyLog({ time: 23.8, pid: 175, line: 2041, offset: '0x7e6' })), 'expectations/kernel-rdmavt.yaml:53')),
      'post_srq_recv/bad-wr-first',
      (k) => broke(k, 'post_srq_recv.bad_wr.first-failing'),
    ),
    'k61/ibverbs/results.json': withCase(
      withCase(verbs61, 'post_send/rdma-write', (k) => splatted(k, fortifyLog({ time: 87.0, pid: 268, line: 2041, offset: '0x7e6' }))),
      'post_recv/srq-attached-rejected',
      (k) => crashed(k, 244, 'postRecv'),
    ),
    'k612/kernel/results.json': withCase(recordedOn(model, { ...K612, layer: 'kernel' }), 'post_srq_recv/single-wr', (k) => splatted(k, oopsLog('rvt_post_srq_recv'))),
    'k612/ibverbs/results.json': withCase(
      recordedOn(model, { kernel: K612.kernel, device: 'rvt_sim0', provider: 'ipathverbs', layer: 'libibverbs', form: 'tree' }),
      'post_recv/srq-attached-rejected',
      (k) => crashed(k, 301, 'postRecv'),
    ),
    'siw/results.json': withCase(siw, 'post_recv/srq-attached-rejected', (k) => crashed(k, 179, 'postRecv')),
  };
}

/** The hostile tier as the VM left it on 6.1 and 6.12 (conformance-report/hostile*): three scenarios oopsed rdmavt, four passed. */
export const HOSTILE_RUNS = ['hostile-6.1.json', 'hostile-6.12.json'].map((name) => join(import.meta.dirname, '../../fixtures/findings', name));
