import { modelAdapter } from '../adapters/model/index.js';
import { fuzz } from '../suites/fuzz/run.js';
import { emit } from './measure.js';

const fuzzModel = (runs: number, seed: number) => fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs, seed });

/** Fuzzing throughput, model against model, on one core, and the share of commands run on live QPs (issue 15). */
async function main(): Promise<void> {
  // A warm-up long enough for V8 to have compiled the hot paths, then the median of three runs:
  // on a shared machine a single run is as often slowed by a neighbour as by the code.
  await fuzzModel(200, 1);
  const reports = [await fuzzModel(500, 2), await fuzzModel(500, 2), await fuzzModel(500, 2)];
  const report = reports.sort((a, b) => a.commandsPerSecond - b.commandsPerSecond)[1] ?? reports[0];
  if (report === undefined) throw new Error('no fuzz run');
  const command = 'rvt-conform fuzz --runs 500 (bench/fuzzing.ts)';
  emit('fuzzing', [
    {
      name: `fuzzing, model vs model (${report.commands} commands, median of 3)`,
      value: report.commandsPerSecond,
      unit: 'commands/s',
      target: { text: '>= 100000 (issue 15)', met: report.commandsPerSecond >= 100_000 },
      command,
    },
    {
      name: 'fuzzing, commands run while both QPs were in RTS',
      value: Math.round(report.liveShare * 1000) / 10,
      unit: '%',
      target: { text: '>= 70 % (issue 15)', met: report.liveShare >= 0.7 },
      command,
    },
  ]);
}

await main();
