import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../adapters/grpc/server.js';
import { RunResults } from '../../../reports/results-schema.js';
import { runCli } from '../../cli-in-process.js';
import { serveModel } from './fixture.js';

describe('an agent that goes away mid-run', () => {
  it('stops the run: exit 2, saying why, the results so far written and no case blamed for it', async () => {
    let agent: Agent | undefined;
    let closed = 0;
    // shut down for good once the probes (one session each) and a few cases are done (a session ends
    // with closeSession on the unary rpcs, as the call `session` on the session stream)
    const served = await serveModel({ log: (line) => { if (/ call=(closeSession|session) /.test(line) && ++closed === 15) void agent?.close(); } });
    agent = served.agent;
    const out = await mkdtemp(join(tmpdir(), 'rvt-agent-gone-'));
    const r = await runCli(['run', '--adapter', 'grpc', '--target', served.agent.address, '--out', out, '--quiet'], { CI: '1' });

    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^rvt-conform: the run stopped after \d+ of \d+ cases: .*(cannot reach the rvt-conform agent|the agent) at 127\.0\.0\.1:\d+.*; the results so far are in /m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const results = RunResults.parse(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
    expect(results.run.interrupted).toBe(true);
    const ran = results.cases.filter((c) => c.ran === 'ok');
    const stopped = results.cases.filter((c) => c.ran === 'not-run');
    expect(ran.length).toBeGreaterThan(0);
    expect(stopped.length).toBeGreaterThan(0);
    expect(results.cases.filter((c) => c.ran !== 'ok' && c.ran !== 'not-run').map((c) => [c.id, c.ran, c.status, c.reason])).toEqual([]);
    expect(stopped.every((c) => c.status === 'skip' && /^not run( to its end)?: (the run stopped: )?(cannot reach the rvt-conform agent|closeSession: the agent at \S+ cancelled the call)/.test(c.reason ?? ''))).toBe(true);
    expect(results.cases.filter((c) => c.status === 'error')).toEqual([]);
  });
});
