import { describe, expect, it } from 'vitest';
import { allCases } from '../../../suites/index.js';
import { referenceModel, referenceSuiteRuns, runAgainst } from '../../helpers.js';
import { evidence, serveModel } from './fixture.js';

const CLIENTS = 4;

describe('concurrent clients of one agent', () => {
  it(`${CLIENTS} clients running the whole suite at once each get the local model's results, none lost`, { timeout: 300_000 }, async () => {
    const served = await serveModel();
    const local = evidence(await referenceSuiteRuns());
    const remote = await Promise.all(Array.from({ length: CLIENTS }, () => runAgainst(served.client(), allCases)));
    for (const runs of remote) expect(evidence(runs)).toEqual(local);
    expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 });
    // every case that ran had its own session, opened and closed
    const sessions = served.log.filter((line) => / call=session status=OK /.test(line)).length;
    expect(sessions).toBe(CLIENTS * local.filter((run) => run.ran !== 'capability-missing').length);
  });
});
