import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { writeFileAtomic } from '../../reports/atomic.js';
import { UserError } from '../../spec/errors.js';
import { readInputFile } from '../../spec/input-file.js';
import { clauses } from '../../spec/clauses/index.js';
import { coverage } from '../../reports/coverage.js';
import { clausesTouchedBy } from '../../spec/drift-clauses.js';
import { diffSnapshots, DriftReport, renderDrift } from '../../spec/kernel-doc/drift.js';
import { openKernelSource } from '../../spec/kernel-doc/kernel-source.js';
import { lostFiles } from '../../spec/kernel-doc/lost-files.js';
import { buildSnapshot, loadSnapshot, serializeSnapshot, setName, type Snapshot } from '../../spec/kernel-doc/snapshot.js';
import type { Diagnostic } from '../../spec/kernel-doc/schema.js';
import { loadPinnedSnapshot, pinnedSnapshotPath, setSnapshotPath } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';
import { outputFile } from '../output-paths.js';

const printDiagnostic = (d: Diagnostic) => process.stderr.write(`${d.file}:${d.line}: ${d.severity}: ${d.message} [${d.code}]\n`);

interface SetFlags {
  kernelSrc: string;
  files?: string[];
}

/** The snapshot file of the set the flags name: rdmavt's by default. */
function snapshotPathOf(flags: SetFlags & { snapshot?: string }): string {
  if (flags.snapshot) return resolve(flags.snapshot);
  return flags.files ? setSnapshotPath(setName(flags.files)) : pinnedSnapshotPath();
}

async function importSnapshot(flags: SetFlags & { out?: string; force: boolean }): Promise<void> {
  const out = await outputFile('--out', flags.out ?? snapshotPathOf(flags));
  const source = await openKernelSource(flags.kernelSrc);
  const snapshot = await buildSnapshot(source, { onDiagnostic: printDiagnostic, ...(flags.files ? { patterns: flags.files } : {}) });
  // The snapshot this one replaces, if any: rdmavt's pinned one, or the set's own.
  const previous = flags.files === undefined ? loadPinnedSnapshot() : existsSync(out) ? readPinned(out) : undefined;
  const lost = previous === undefined ? [] : lostFiles(previous, snapshot);
  if (lost.length > 0 && !flags.force) {
    throw new UserError(`${flags.kernelSrc} has no kernel-doc in ${lost.join(', ')}, which the pinned snapshot documents: not written`, {
      hint: 'point --kernel-src at an unmodified kernel tree or linux-source tarball, or add --force to write it anyway',
    });
  }
  await writeFileAtomic(out, serializeSnapshot(snapshot));
  const counts = snapshot.files.map((f) => `${f.path}: ${f.functions.length} functions${f.types.length > 0 ? `, ${f.types.length} types` : ''}`).join(', ');
  process.stdout.write(`imported linux ${snapshot.kernel.version} (${snapshot.kernel.source}): ${counts}\nwritten: ${relative(process.cwd(), out) || out}\n`);
}

/** A pinned snapshot is about 100 kB. */
const MAX_SNAPSHOT_BYTES = 16 << 20;

function readPinned(path: string): Snapshot {
  const text = readInputFile(path, {
    what: 'the pinned snapshot',
    maxBytes: MAX_SNAPSHOT_BYTES,
    hint: 'Import the set first with `rvt-conform spec import --kernel-src PATH --files ...` (the same --files).',
  }).toString('utf8');
  return loadSnapshot(text, relative(process.cwd(), path) || path);
}

async function checkDrift(flags: SetFlags & { snapshot?: string; json: boolean }): Promise<number> {
  const path = snapshotPathOf(flags);
  const pinned = readPinned(path);
  const options = { onDiagnostic: printDiagnostic, ...(pinned.patterns ? { patterns: pinned.patterns } : {}) };
  const other = await buildSnapshot(await openKernelSource(flags.kernelSrc), options);
  const drift = diffSnapshots(pinned, other);
  const touched = [...new Set(drift.flatMap((entry) => clausesTouchedBy(entry, clauses)))];
  const set = pinned.patterns?.join(' ') ?? 'rdmavt';
  if (flags.json) {
    const report = DriftReport.parse({ set, pinned: pinned.kernel.version, checked: other.kernel.version, drift, clauses: touched });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else if (drift.length === 0) {
    process.stdout.write(`no drift: linux ${other.kernel.version} documents ${set} as pinned (linux ${pinned.kernel.version})\n`);
  } else {
    process.stdout.write(`drift of ${set} from the pinned linux ${pinned.kernel.version} to linux ${other.kernel.version}:\n${renderDrift(drift)}\n`);
    process.stdout.write(touched.length > 0 ? `clauses citing changed text: ${touched.join(', ')}\n` : 'no clause cites the changed text\n');
  }
  return drift.length === 0 ? 0 : 1;
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
    process.stdout.write(`${e.function.padEnd(width)}  ${e.status.padEnd(11)}  ${detail}\n`);
  }
  const count = (s: string) => entries.filter((e) => e.status === s).length;
  process.stdout.write(`\n${entries.length} documented functions: ${count('covered')} covered, ${count('reachable')} reachable but not covered, ${count('internal')} driver-internal, ${count('driver-only')} driver-only\n`);
}

export function registerSpecCommands(program: Command): void {
  const spec = program.command('spec').description('the kernel-doc spec: import it, check a kernel for drift, show coverage');
  const files = '.c/.h files to read, globs relative to the tree (default: rdmavt qp.c, srq.c, mr.c, cq.c, ah.c)';
  spec
    .command('import')
    .description('read the kernel-doc of a set of files from a kernel tree or a linux-source tarball and write its pinned snapshot')
    .requiredOption('--kernel-src <path>', 'a kernel tree, or /usr/src/linux-source-6.1.tar.xz')
    .option('--files <glob...>', files)
    .option('--out <file>', 'where to write it (default: spec/snapshots/rdmavt.json, or spec/snapshots/<set>.json for --files)')
    .option('--force', 'write it even when files the pinned snapshot documents have no kernel-doc in this source', false)
    .action(importSnapshot);
  spec
    .command('check')
    .description("compare another kernel's documentation of a set with its pinned snapshot; exit 1 on drift")
    .requiredOption('--kernel-src <path>', 'a kernel tree or a linux-source tarball')
    .option('--files <glob...>', `${files}: picks spec/snapshots/<set>.json`)
    .option('--snapshot <file>', 'the pinned snapshot to compare with (instead of --files)')
    .option('--json', 'the drift as JSON', false)
    .action(async (flags: SetFlags & { snapshot?: string; json: boolean }) => {
      process.exitCode = await checkDrift(flags);
    });
  spec
    .command('coverage')
    .description('every documented function of qp.c and srq.c: covered, reachable, or driver-internal')
    .option('--json', 'as JSON', false)
    .action(printCoverage);
}
