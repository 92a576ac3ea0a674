/** Small timing helpers for the benchmarks: median of repeated runs, peak RSS of this process. */
export interface Timing {
  medianMs: number;
  minMs: number;
  runs: number;
}

export async function time(fn: () => Promise<unknown>, runs: number): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, minMs: samples[0] ?? 0, runs };
}

export const peakRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** One figure of a benchmark: a value, its unit, and the target it answers to (if an issue set one). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  /** Text of the target, and whether the value meets it. */
  target?: { text: string; met: boolean };
  command: string;
}

/** What every benchmark script prints as its last line: its figures and its own peak memory. */
export interface BenchOutput {
  bench: string;
  figures: Figure[];
  peakRssMb: number;
}

export function emit(bench: string, figures: Figure[]): void {
  const out: BenchOutput = { bench, figures, peakRssMb: peakRssMb() };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
