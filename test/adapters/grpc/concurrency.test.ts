import { describe, expect, it } from 'vitest';
import { referenceRunsOf, runAgainst, sequentialCases } from '../../helpers.js';
import { expectSameEvidence, serveModel } from './fixture.js';

const CLIENTS = 4;

describe('concurrent clients of one agent', () => {
  it(`${CLIENTS} clients running the suite's sequential cases at once each get the local model's results, none lost`, { timeout: 300_000 }, async () => {
    const served = await serveModel();
    const local = await referenceRunsOf(sequentialCases);
    const remote = await Promise.all(Array.from({ length: CLIENTS }, () => runAgainst(served.client(), sequentialCases)));
    for (const runs of remote) expectSameEvidence(runs, local);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
    // every case that ran had its own session, opened and closed
    const sessions = served.log.filter((line) => / call=session status=OK /.test(line)).length;
    expect(sessions).toBe(CLIENTS * local.filter((run) => run.ran !== 'capability-missing').length);
  });
});
