import { release } from 'node:os';
import { type Adapter, withWatch } from '../adapters/adapter.js';
import { FunctionTrace, type TraceFiles, type TracedCase, functionTraceWatch } from '../adapters/kernel/ftrace.js';
import { type InlineSiteTable, inlineSitesOf, loadInlineSiteTables, loadedModuleBuildId } from '../adapters/kernel/inline-sites.js';
import type { CoverageEntry } from '../reports/coverage.js';
import { type KernelCoverage, kernelCoverage } from '../reports/kernel-coverage.js';
import { UserError } from '../spec/errors.js';
import type { CoverageSource } from '../suites/fuzz/corpus.js';

/** --kernel-coverage's help, the same on run and in a tiers file's description. */
export const KERNEL_COVERAGE_HELP = kernelCoverageHelp("in each case", "into results.json's kernelCoverage and the reports");

/** fuzz --kernel-coverage's help: run's, per run, with what the fuzzer does with it. */
export const FUZZ_KERNEL_COVERAGE_HELP = kernelCoverageHelp(
  'in each run (command sequence)',
  "runs that reach a function no earlier run reached are kept, and later runs extend or splice them; into fuzz.json's kernelCoverage and corpus",
);

function kernelCoverageHelp(when: string, what: string): string {
  return `record which functions of the device's kernel driver ran ${when}, with the kernel's function tracer (rvt_sim0: rdmavt, rxe0: rdma_rxe, siw0: siw; another device: name its module); ${what}; needs root and CONFIG_FUNCTION_TRACER (with --vm, the guest has both); off by default, its cost under TCG not yet measured`;
}

/** The module that implements each software device, by the device's name without its number. */
const DRIVER_MODULES: Record<string, string> = { rvt_sim: 'rdmavt', rxe: 'rdma_rxe', siw: 'siw' };

/** The adapters whose verbs run in this machine's kernel, where the tracer sees them. */
const KERNEL_ADAPTERS = ['kernel', 'ibverbs'];

/**
 * The module --kernel-coverage traces: the one named, or the device's driver. Checked before any
 * case runs (and before a VM boots for them).
 */
export function kernelCoverageModule(flag: true | string, adapter: string, device: string | undefined): string {
  if (!KERNEL_ADAPTERS.includes(adapter)) {
    throw new UserError(`--kernel-coverage traces a kernel driver, which --adapter ${adapter} does not run on this machine`, { hint: 'use it with --adapter kernel or ibverbs' });
  }
  if (flag !== true) {
    if (!/^[\w-]+$/.test(flag)) throw new UserError(`--kernel-coverage ${flag}: not a module name`, { hint: 'e.g. --kernel-coverage rdma_rxe' });
    return flag;
  }
  const module = DRIVER_MODULES[(device ?? 'rxe0').replace(/\d+$/, '')];
  if (module === undefined) throw new UserError(`--kernel-coverage does not know the module of ${device}`, { hint: 'name it: --kernel-coverage MODULE' });
  return module;
}

/** The tracer held for one run: the adapter under its watch, and the run's record at the end. */
export interface KernelCoverageRun {
  /** `adapter` with the tracer around each of its cases. */
  watching(adapter: Adapter): Adapter;
  /** The fuzzer's view of the same tracer: the ring emptied when a run (a command sequence) starts, read when it ends. */
  runs: CoverageSource;
  /**
   * The section for results.json; `rdmavt`: the kernel-doc snapshot's functions (reports/coverage.ts), the list when the module is rdmavt.
   * `runs`: the fuzzer's record of what each run reached first; without it, the cases `watching` saw.
   */
  record(rdmavt: readonly CoverageEntry[], runs?: readonly TracedCase[]): KernelCoverage;
  /** Gives the tracer back. */
  close(): void;
}

/** Where the tracer and the module's build-id are read, and the inline-site tables: this machine's, or a test's fakes. */
export interface KernelCoverageHost {
  files?: TraceFiles;
  /** The folder of /sys/module. */
  sysModule?: string;
  tables?: readonly InlineSiteTable[];
}

/**
 * Takes the function tracer for `module` (a UserError when this kernel or user cannot), with
 * kprobes on the inlined copies of its functions when a committed table matches the loaded
 * module's build-id.
 */
export function startKernelCoverage(module: string, host: KernelCoverageHost = {}): KernelCoverageRun {
  const buildId = loadedModuleBuildId(module, host.sysModule);
  const sites = inlineSitesOf(module, buildId, host.tables ?? loadInlineSiteTables());
  const trace = FunctionTrace.open(module, host.files, 'table' in sites ? sites.table : undefined);
  const { watch, cases } = functionTraceWatch(trace);
  const probed = new Map<string, number>();
  for (const probe of trace.probes) probed.set(probe.function, (probed.get(probe.function) ?? 0) + 1);
  const inline = {
    ...(buildId === undefined ? {} : { buildId }),
    ...('table' in sites ? { table: sites.table.source } : { reason: sites.reason }),
    probed,
    refused: trace.refused,
  };
  return {
    watching: (adapter) => withWatch(adapter, watch),
    runs: {
      begin: () => trace.begin(),
      end: () => {
        trace.stop();
        return trace.seen();
      },
    },
    // the pinned snapshot documents rdmavt; rdma_rxe and siw are listed by what the filter took
    record: (rdmavt, runs) =>
      kernelCoverage({ module, kernel: release(), traceable: trace.traceable, traced: runs ?? cases, fuzzed: runs !== undefined, inline, ...(module === 'rdmavt' ? { documented: rdmavt } : {}) }),
    close: () => trace.close(),
  };
}
