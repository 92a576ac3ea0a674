import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isUserError } from '../../spec/errors.js';
import { HOSTILE_SOURCE } from '../../guest/hostile-in-vm.js';
import { hostileRunCommand } from '../../suites/hostile/scenarios.js';
import { projectRoot } from '../../vm/project-root.js';
import { renderKernelRepro } from '../repro/kernel/module.js';
import { renderRepro } from '../repro/program.js';
import type { RunResults } from '../results-schema.js';
import { reproCommandFor } from '../where.js';
import type { Finding, Reproducer } from './schema.js';

/** What a folder holds for each kind, so that `vm --run-repro FOLDER` knows it (cli/commands/vm-repro.ts). */
export const PROGRAM_FILE = 'repro.c';
export const HOSTILE_FILE = 'hostile.c';
/** The hostile scenario a folder's hostile.c runs, on one line. */
export const SCENARIO_FILE = 'scenario';

let hostileText: string | undefined;
/** The hostile program as this rvt-conform ships it: the run's report set keeps a copy, but a findings set may be read far from it. */
const hostileSource = () => (hostileText ??= readFileSync(join(projectRoot(), HOSTILE_SOURCE), 'utf8'));

/**
 * The reproducer of a case of a run, generated from that run: the hostile tier's program and its
 * scenario, a kernel module replaying a kernel-adapter recording, a libibverbs program replaying a
 * libibverbs one; a case that made no verbs calls has nothing to replay, and keeps the command
 * that says so when run.
 */
export function reproducerOf(results: RunResults, caseId: string, path: string, run: number): Reproducer {
  const device = results.adapter.device.name;
  const base = { case: caseId, layer: results.adapter.layer, run, device };
  if (results.adapter.adapter === 'hostile') {
    const scenario = caseId.replace(/^hostile_user\//, '');
    return {
      ...base,
      kind: 'hostile',
      scenario,
      command: `${hostileRunCommand(HOSTILE_FILE, scenario, device)}   (as root, rvt_sim loaded with qib_id=1)`,
      files: [
        { name: HOSTILE_FILE, text: hostileSource() },
        { name: SCENARIO_FILE, text: `${scenario}\n` },
      ],
    };
  }
  const command = reproCommandFor(caseId, path);
  try {
    if (results.adapter.adapter === 'kernel') {
      const files = Object.entries(renderKernelRepro(results, caseId, path)).map(([name, text]) => ({ name, text }));
      return { ...base, kind: 'module', command: `${command} --out DIR`, files };
    }
    if (results.adapter.layer === 'libibverbs') return { ...base, kind: 'program', command, files: [{ name: PROGRAM_FILE, text: renderRepro(results, caseId, path) }] };
  } catch (error) {
    if (!isUserError(error)) throw error;
  }
  return { ...base, kind: 'command', command, files: [] };
}

/** A title as a folder name: lower case words joined by dashes, short enough to read in a listing. */
export const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 48)
    .replace(/^-+|-+$/g, '');

/**
 * Each reproducer's folder, by the finding's rank: `<n>-<slug>` for a finding with one reproducer
 * to write, `<n>-<slug>/<kind>` for each of several (a defect seen through both layers).
 */
export function placeReproducers(findings: readonly Finding[]): Finding[] {
  return findings.map((finding, index) => {
    const folder = `${index + 1}-${slug(finding.title)}`;
    const written = finding.reproducers.filter((r) => r.files.length > 0).length;
    return { ...finding, reproducers: finding.reproducers.map((r) => (r.files.length === 0 ? r : { ...r, dir: written === 1 ? folder : `${folder}/${r.kind}` })) };
  });
}
