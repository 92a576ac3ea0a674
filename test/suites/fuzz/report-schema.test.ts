import { describe, expect, it } from 'vitest';
import { FuzzResults } from '../../../suites/fuzz/report-schema.js';

const report = { schemaVersion: 2, kind: 'conformance', adapter: 'kernel', reference: 'model', profile: 'rdmavt', seed: 1, runs: 3, commands: 40, durationMs: 5, commandsPerSecond: 8000, liveShare: 0.5 } as const;

describe('fuzz.json', () => {
  it('still reads a report written before the kernel log was watched (no finding)', () => {
    expect(FuzzResults.parse({ ...report, divergence: null }).finding).toBeUndefined();
  });

  it('carries a finding with its log lines and the sequence that was running', () => {
    const finding = { problem: 'kernel oops during #3 send(0; SEND:8/negative)', lines: ['BUG: kernel NULL pointer dereference'], fatal: true, sequence: ['post()', 'send(0; SEND:8/negative)'] };
    const divergence = { path: '0@A:B', commands: 'post(),send(0; SEND:8/negative)', message: `fatal: ${finding.problem}`, replay: 'rvt-conform fuzz' };
    expect(FuzzResults.parse({ ...report, divergence, finding }).finding).toEqual(finding);
  });
});
