import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOutput } from './measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Each benchmark in its own process, so each has its own peak memory and no JIT state leaks across. */
const BENCHES = ['suite', 'conform', 'throughput', 'fuzzing', 'mutation', 'grpc', 'kernel-doc', 'concurrent-checker', 'findings'];

function runBench(name: string): BenchOutput | undefined {
  const script = `${ROOT}dist/bench/${name}.js`;
  if (!existsSync(script)) return undefined;
  const stdout = execFileSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const last = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as BenchOutput;
}

function main(): void {
  const outputs = BENCHES.map(runBench).filter((o): o is BenchOutput => o !== undefined);
  const rows = outputs.flatMap((o) => o.figures.map((f) => ({ ...f, bench: o.bench, peakRssMb: o.peakRssMb })));
  writeFileSync(`${ROOT}bench/results.json`, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    const value = r.unit === 'ms' ? r.value.toFixed(1) : String(r.value);
    const target = r.target ? `  ${r.target.met ? 'meets' : 'MISSES'} ${r.target.text}` : '';
    console.log(`${r.name.padEnd(width)}  ${value.padStart(12)} ${r.unit.padEnd(10)}  peak ${String(r.peakRssMb).padStart(4)} MB${target}`);
  }
  console.log('written: bench/results.json');
}

main();
