import { describe, expect, it } from 'vitest';
import { kernelCoverage } from '../../reports/kernel-coverage.js';
import { FuzzFile } from '../../reports/fuzz-file.js';

const report = { schemaVersion: 2, kind: 'conformance', adapter: 'kernel', reference: 'model', profile: 'rdmavt', seed: 1, runs: 3, commands: 40, durationMs: 5, commandsPerSecond: 8000, liveShare: 0.5, divergence: null } as const;

describe('fuzz.json with --kernel-coverage', () => {
  const traced = [
    { caseId: 'run 1', functions: ['rvt_create_srq', 'rvt_post_srq_recv'], lost: 0 },
    { caseId: 'run 2', functions: ['rvt_modify_srq'], lost: 0 },
  ];
  const k = kernelCoverage({ module: 'rdmavt', kernel: '6.1.0-57-amd64', traceable: new Set(['rvt_create_srq', 'rvt_post_srq_recv', 'rvt_modify_srq', 'rvt_destroy_qp']), traced });
  const corpus = { guidedRuns: 1, entries: [{ run: 2, commands: ['armLimit(3)'], added: ['rvt_modify_srq'] }] };

  it('carries the functions, each with the run that reached it first, and the corpus', () => {
    const read = FuzzFile.parse({ ...report, kernelCoverage: k, corpus });
    expect(read.kernelCoverage?.functions.find((f) => f.function === 'rvt_modify_srq')?.cases).toEqual(['run 2']);
    expect(read.corpus).toEqual(corpus);
  });

  it('reads a report written without it, and refuses a malformed table', () => {
    expect(FuzzFile.parse(report).kernelCoverage).toBeUndefined();
    expect(FuzzFile.safeParse({ ...report, kernelCoverage: { ...k, functions: [{ function: 'x' }] } }).success).toBe(false);
  });
});
