import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modelAdapter } from '../adapters/model/index.js';
import { allCases } from '../suites/index.js';
import { runCases } from '../suites/runner.js';
import { peakRssMb, time, type Timing } from './measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function suiteOnModel(verb?: string): Promise<Timing> {
  const adapter = modelAdapter();
  const info = await adapter.info();
  const cases = verb === undefined ? allCases : allCases.filter((c) => c.verb === verb);
  return time(() => runCases({ adapter, info, cases, profile: 'rdmavt', timeoutMs: 10_000 }), 20);
}

/** `npm run conform` as a user runs it, wall time, in a child process. */
async function conformWallTime(): Promise<Timing> {
  return time(async () => {
    execFileSync('npm', ['run', '-s', 'conform', '--', '--quiet', '--out', '/tmp/rvt-bench-report'], { cwd: ROOT, stdio: 'ignore' });
  }, 5);
}

async function main(): Promise<void> {
  const verbs = [...new Set(allCases.map((c) => c.verb))];
  const rows: Record<string, Timing & { target?: string }> = {};
  for (const verb of verbs) rows[`suite runner on model: ${verb}`] = await suiteOnModel(verb);
  rows['suite runner on model: total'] = { ...(await suiteOnModel()), target: '< 1000 ms (issue 2, post_srq_recv); < 2000 ms (issue 4, all)' };
  rows['npm run conform wall time'] = { ...(await conformWallTime()), target: '< 5000 ms (issue 2)' };
  const results = { date: new Date().toISOString(), node: process.version, peakRssMb: peakRssMb(), rows };
  writeFileSync(`${ROOT}bench/results.json`, `${JSON.stringify(results, null, 2)}\n`);
  const width = Math.max(...Object.keys(rows).map((k) => k.length));
  for (const [name, t] of Object.entries(rows)) {
    console.log(`${name.padEnd(width)}  median ${t.medianMs.toFixed(1).padStart(8)} ms  min ${t.minMs.toFixed(1).padStart(8)} ms  (${t.runs} runs)${t.target ? `  target ${t.target}` : ''}`);
  }
  console.log(`peak RSS of the bench process: ${results.peakRssMb} MB; written to bench/results.json`);
}

await main();
