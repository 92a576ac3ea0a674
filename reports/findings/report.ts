import { MODULE_NAME } from '../repro/kernel/module.js';
import { PROGRAM_FILE } from './reproducers.js';
import type { Finding, FindingsRun, Sighting } from './schema.js';
import { deviceWords, kernelWords, LAYER_WORDS, REPRODUCER_WORDS } from './words.js';

/** A finding before its draft report is written: everything the report is drafted from. */
export type Drafted = Omit<Finding, 'report'>;

/** How many kernel log lines a draft carries (the splat, the registers, the head of the call trace). */
const LOG_LINES = 30;

/** Sightings by kernel, then device and layer, each with its cases and how they ended. */
function coordinates(sightings: readonly Sighting[], runs: readonly FindingsRun[]): string[] {
  const kernels = new Map<string, Map<string, string[]>>();
  for (const s of sightings) {
    const run = runs[s.run] as FindingsRun;
    const kernel = kernels.get(kernelWords(run)) ?? new Map<string, string[]>();
    kernels.set(kernelWords(run), kernel);
    const where = `${deviceWords(run)} through ${LAYER_WORDS[run.layer]}`;
    kernel.set(where, [...(kernel.get(where) ?? []), `${s.case} ${s.status}${s.otherFinding === undefined ? '' : `, another finding: ${s.otherFinding}`}`]);
  }
  return [...kernels].flatMap(([kernel, places]) => [`  - ${kernel}:`, ...[...places].map(([where, cases]) => `      ${where}: ${[...new Set(cases)].join('; ')}`)]);
}

/** A kernel module as the subject names its subsystem: rdma_rxe -> rxe; the core's modules (ib_core, ib_uverbs, ...) -> core; the model's `rdmavt (TypeScript model)` -> rdmavt. */
const moduleSubsystem = (module: string) => (/^(ib_|rdma_cm$|rdma_ucm$)/.test(module) ? 'core' : (module.replace(/^rdma_/, '').split(' ')[0] ?? module));

/**
 * The subsystem a linux-rdma subject names: for a kernel splat, the driver folder of its file or
 * the module the log names (never the user-space provider it came through); for a user-space
 * crash, the provider's library; else the driver of a kernel-layer run, else the provider.
 */
function subsystem(finding: Drafted, runs: readonly FindingsRun[]): string {
  const seen = finding.seen.map((s) => runs[s.run] as FindingsRun);
  const driver = seen.find((r) => r.driver !== null)?.driver ?? undefined;
  const provider = seen.find((r) => r.provider !== null)?.provider ?? undefined;
  const logged = finding.where.filter((l) => l.from === 'kernel-log');
  const folder = logged.map((l) => l.file?.match(/drivers\/infiniband\/(?:sw|hw|ulp)\/(\w+)\//)?.[1]).find((f) => f !== undefined);
  const module = logged.map((l) => l.module).find((m): m is string => m !== null);
  if (folder !== undefined) return `RDMA/${folder}`;
  if (module !== undefined) return `RDMA/${moduleSubsystem(module)}`;
  if (finding.severity === 'crash' && provider !== undefined) return `rdma-core/${provider}`;
  if (driver !== undefined) return `RDMA/${moduleSubsystem(driver)}`;
  if (logged.length > 0 || finding.log.length > 0) return 'RDMA';
  return provider === undefined ? 'RDMA' : `rdma-core/${provider}`;
}

const json = (value: unknown) => JSON.stringify(value);

function expectedActual(finding: Drafted): { expected: string[]; actual: string[] } {
  const log = finding.log[0]?.lines ?? [];
  const logLines = log.length === 0 ? [] : ['  the kernel log:', ...log.slice(0, LOG_LINES).map((l) => `    ${l}`), ...(log.length > LOG_LINES ? [`    ... (${log.length - LOG_LINES} more lines)`] : [])];
  const checks = finding.checks.map((c) => ({ expected: `  - ${c.clause}, ${c.what}: ${json(c.expected)}`, actual: `  - ${c.clause}, ${c.what}: ${json(c.actual)}` }));
  const expected = checks.map((c) => c.expected);
  const actual = checks.map((c) => c.actual);
  switch (finding.severity) {
    case 'contract':
      return { expected, actual };
    case 'crash':
      return { expected: [...expected, '  - the call returns (an error is an answer); the process lives on'], actual: [...actual, `  - ${finding.reason ?? 'the process crashed'}`] };
    default:
      return {
        expected: [...expected, '  - no BUG, WARNING, oops, lockup, KASAN/UBSAN or FORTIFY report in the kernel log'],
        actual: [...actual, ...(finding.reason === undefined ? [] : [`  - ${finding.reason}`]), ...logLines],
      };
  }
}

/** How a reader builds and runs a reproducer from its attached files. */
function howToRun(r: Drafted['reproducers'][number]): string {
  switch (r.kind) {
    case 'program':
      return `Build and run the attached libibverbs program (case ${r.case}): cc -Wall -o repro ${PROGRAM_FILE} -libverbs && ./repro ${r.device}`;
    case 'module':
      return `Build and load the attached kernel module (case ${r.case}, the kernel verbs): make && insmod ${MODULE_NAME}.ko device=${r.device}; dmesg | grep rvt-repro`;
    case 'hostile':
      return `Build and run the attached program (scenario ${r.scenario ?? r.case}): ${r.command}`;
    case 'command':
      return `Case ${r.case} of rvt-conform; its reproducer: ${r.command}`;
  }
}

function steps(finding: Drafted, runs: readonly FindingsRun[]): string[] {
  const first = runs[finding.seen[0]?.run ?? 0] as FindingsRun;
  const items = [
    `Boot ${kernelWords(first)} with the device ${deviceWords(first)}.`,
    ...finding.reproducers.map(howToRun),
    finding.severity === 'contract' || finding.severity === 'crash' ? "Compare the program's output with the expected results below." : 'Read the kernel log (dmesg).',
  ];
  return items.map((item, index) => `  ${index + 1}. ${item}`);
}

/**
 * A draft of the report to linux-rdma@vger.kernel.org, in the form the list reads: a `[BUG]`
 * subject naming the subsystem, the affected versions (and where it was not seen), what the
 * documentation says, steps to reproduce, expected vs actual, the reproducer attached.
 */
export function draftReport(finding: Drafted, runs: readonly FindingsRun[]): { subject: string; body: string } {
  const subject = `[BUG] ${subsystem(finding, runs)}: ${finding.title}`;
  const { expected, actual } = expectedActual(finding);
  const contract = finding.clauses.flatMap((c) => [
    `  - ${c.statement} (${c.id})`,
    ...c.sources.map((s) => `      ${s.text}${s.quote === undefined ? '' : `: "${s.quote.replace(/\s+/g, ' ')}"`}`),
  ]);
  const where = finding.where.map((l) => `  - ${[l.file === null ? undefined : `${l.file}${l.line === null ? '' : `:${l.line}`}`, l.function === null ? undefined : `${l.function}()`].filter(Boolean).join(' ')} (${l.kernel === null ? '' : `linux ${l.kernel}, `}from the ${l.from === 'kernel-log' ? 'kernel log' : l.from})`);
  const attached = finding.reproducers.flatMap((r) => (r.files.length === 0 ? [] : [`  ${r.files.map((f) => f.name).join(', ')}: ${REPRODUCER_WORDS[r.kind]} (case ${r.case})`]));
  const known = finding.expectations.map((e) => `  ${e.source}: ${e.reason} (${e.link})`);
  const body = [
    `Subject: ${subject}`,
    '',
    `${finding.title}.`,
    '',
    'Affected versions (seen on):',
    ...coordinates(finding.seen, runs),
    ...(finding.notSeen.length === 0 ? [] : ['', 'Not seen on (the same case ran without it):', ...coordinates(finding.notSeen, runs)]),
    ...(where.length === 0 ? [] : ['', 'Where:', ...where]),
    ...(contract.length === 0 ? [] : ['', 'What the documentation says:', ...contract]),
    '',
    'Steps to reproduce:',
    ...steps(finding, runs),
    '',
    'Expected:',
    ...expected,
    '',
    'Actual:',
    ...actual,
    ...(known.length === 0 ? [] : ['', 'Known before this report (the expectations file that accepts it):', ...known]),
    '',
    'Reproducer:',
    ...(attached.length === 0 ? finding.reproducers.map((r) => `  ${r.command}`) : attached),
    '',
  ].join('\n');
  return { subject, body };
}
