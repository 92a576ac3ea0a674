import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../adapters/adapter.js';
import { referenceModel } from '../helpers.js';
import { casesNamed, resultsFor } from './fixture.js';

/** The model, declaring no capability at all: every case that needs one is skipped. */
function withoutCapabilities(): Adapter {
  const model = referenceModel();
  return { ...model, info: async () => ({ ...(await model.info()), capabilities: [] }) };
}

describe('the gate', () => {
  it('is never PASS when no binding clause was observed to hold (a case whose only clause is not observable here)', async () => {
    const results = await resultsFor({ cases: casesNamed('post_srq_recv/interrupt-context') });
    expect(results.gate.passed).toBe(false);
    expect(results.gate.summary).toMatch(/^FAIL: no binding clause was observed to hold \(0\/1 binding clauses pass, 1 not observable on this adapter; a partial run: 1 of \d+ binding clauses in scope\)$/);
  });

  it('is never PASS for an adapter that declares no capabilities and so runs only the SRQ-free cases it can', async () => {
    const results = await resultsFor({ adapter: withoutCapabilities(), cases: casesNamed('post_srq_recv/single-wr', 'srq_limit/fires-below') });
    expect(results.cases.map((c) => c.status)).toEqual(['skip', 'skip']);
    expect(results.gate.passed).toBe(false);
    expect(results.gate.summary).toMatch(/no binding clause was observed to hold .*skipped \(capability missing\)/);
  });

  it('counts what it did not verify in a full run, and says a filtered run is partial', async () => {
    const full = await resultsFor({ adapter: withoutCapabilities() });
    expect(full.gate.summary).toMatch(/\d+ skipped \(capability missing\)/);
    expect(full.gate.summary).not.toMatch(/partial run/);
    const one = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
    expect(one.gate.passed).toBe(true);
    expect(one.gate.summary).toMatch(/^PASS: every binding clause that ran holds \(\d+\/\d+ binding clauses pass; a partial run: \d+ of \d+ binding clauses in scope\)$/);
  });
});
