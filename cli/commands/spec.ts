import { relative } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../reports/atomic.js';
import { clauses } from '../../spec/clauses/index.js';
import { coverage } from '../../spec/coverage.js';
import { clausesTouchedBy } from '../../spec/drift-clauses.js';
import { diffSnapshots, renderDrift } from '../../spec/kernel-doc/drift.js';
import { openKernelSource } from '../../spec/kernel-doc/kernel-source.js';
import { lostFiles } from '../../spec/kernel-doc/lost-files.js';
import { buildSnapshot, serializeSnapshot } from '../../spec/kernel-doc/snapshot.js';
import type { Diagnostic } from '../../spec/kernel-doc/schema.js';
import { loadPinnedSnapshot, pinnedSnapshotPath } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';
import { UserError } from '../errors.js';
import { outputFile } from '../output-paths.js';

const printDiagnostic = (d: Diagnostic) => process.stderr.write(`${d.file}:${d.line}: ${d.severity}: ${d.message} [${d.code}]\n`);

async function importSnapshot(flags: { kernelSrc: string; out?: string; force: boolean }): Promise<void> {
  const out = await outputFile('--out', flags.out ?? pinnedSnapshotPath());
  const source = await openKernelSource(flags.kernelSrc);
  const snapshot = await buildSnapshot(source, { onDiagnostic: printDiagnostic });
  const lost = lostFiles(loadPinnedSnapshot(), snapshot);
  if (lost.length > 0 && !flags.force) {
    throw new UserError(`${flags.kernelSrc} has no kernel-doc in ${lost.join(', ')}, which the pinned snapshot documents: not written`, {
      hint: 'point --kernel-src at an unmodified kernel tree or linux-source tarball, or add --force to write it anyway',
    });
  }
  await writeFileAtomic(out, serializeSnapshot(snapshot));
  const counts = snapshot.files.map((f) => `${f.path}: ${f.functions.length} functions`).join(', ');
  process.stdout.write(`imported linux ${snapshot.kernel.version} (${snapshot.kernel.source}): ${counts}\nwritten: ${relative(process.cwd(), out) || out}\n`);
}

async function checkDrift(flags: { kernelSrc: string }): Promise<number> {
  const other = await buildSnapshot(await openKernelSource(flags.kernelSrc), { onDiagnostic: printDiagnostic });
  const pinned = loadPinnedSnapshot();
  const drift = diffSnapshots(pinned, other);
  if (drift.length === 0) {
    process.stdout.write(`no drift: linux ${other.kernel.version} documents rdmavt as pinned (linux ${pinned.kernel.version})\n`);
    return 0;
  }
  process.stdout.write(`drift from the pinned linux ${pinned.kernel.version} to linux ${other.kernel.version}:\n${renderDrift(drift)}\n`);
  const touched = [...new Set(drift.flatMap((entry) => clausesTouchedBy(entry, clauses)))];
  process.stdout.write(touched.length > 0 ? `clauses citing changed text: ${touched.join(', ')}\n` : 'no clause cites the changed text\n');
  return 1;
}

function printCoverage(flags: { json: boolean }): void {
  const entries = coverage(loadPinnedSnapshot(), clauses, allCases);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
    return;
  }
  const width = Math.max(...entries.map((e) => e.function.length));
  for (const e of entries) {
    const detail = e.status === 'covered' ? `${e.clauses.length} clauses, ${e.cases.length} cases` : (e.reason ?? '');
    process.stdout.write(`${e.function.padEnd(width)}  ${e.status.padEnd(9)}  ${detail}\n`);
  }
  const count = (s: string) => entries.filter((e) => e.status === s).length;
  process.stdout.write(`\n${entries.length} documented functions: ${count('covered')} covered, ${count('reachable')} reachable but not covered, ${count('internal')} driver-internal\n`);
}

export function registerSpecCommands(program: Command): void {
  const spec = program.command('spec').description('the kernel-doc spec: import it, check a kernel for drift, show coverage');
  spec
    .command('import')
    .description('read the kernel-doc of rdmavt qp.c and srq.c from a kernel tree or a linux-source tarball and write the pinned snapshot')
    .requiredOption('--kernel-src <path>', 'a kernel tree, or /usr/src/linux-source-6.1.tar.xz')
    .option('--out <file>', 'where to write it (default: the pinned spec/snapshots/rdmavt.json)')
    .option('--force', 'write it even when files the pinned snapshot documents have no kernel-doc in this source', false)
    .action(importSnapshot);
  spec
    .command('check')
    .description("compare another kernel's rdmavt documentation with the pinned snapshot; exit 1 on drift")
    .requiredOption('--kernel-src <path>', 'a kernel tree or a linux-source tarball')
    .action(async (flags: { kernelSrc: string }) => {
      process.exitCode = await checkDrift(flags);
    });
  spec
    .command('coverage')
    .description('every documented function of qp.c and srq.c: covered, reachable, or driver-internal')
    .option('--json', 'as JSON', false)
    .action(printCoverage);
}
