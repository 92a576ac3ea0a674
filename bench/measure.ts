/** Small timing helpers for the benchmarks: median of repeated runs, peak RSS. */
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
