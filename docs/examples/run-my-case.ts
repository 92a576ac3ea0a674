// Runs the case in my-case.ts on the model and writes its reports: the steps `rvt-conform run`
// takes, through the public API. Build it, then: node run-my-case.js [OUT]
import { buildResults, clauses, modelAdapter, probeCapabilities, runCases, writeReports } from 'rvt-conform';
import { threeListsInARow } from './my-case.js';

const adapter = modelAdapter();
try {
  const claimed = await adapter.info();
  const profile = claimed.defaultProfile;
  // Capabilities from evidence: each claimed one is tried before a case relies on it.
  const { capabilities, probes } = await probeCapabilities(adapter, claimed, profile, 10_000);
  const info = { ...claimed, capabilities };
  const startedAt = new Date();
  const { runs, interrupted } = await runCases({ adapter, info, cases: [threeListsInARow], profile, timeoutMs: 10_000 });
  const results = buildResults({ info, profile, seed: 1, filter: null, clauses, runs, startedAt, finishedAt: new Date(), interrupted, snapshot: null, probes });
  const out = process.argv[2] ?? 'my-case-report';
  await writeReports(out, results, ['md']);
  process.stdout.write(`${results.gate.passed ? 'PASS' : 'FAIL'}: ${JSON.stringify(results.totals)}; reports in ${out}\n`);
  process.exitCode = results.gate.passed ? 0 : 1;
} finally {
  await adapter.dispose();
}
