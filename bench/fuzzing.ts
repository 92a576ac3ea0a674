import { modelAdapter } from '../adapters/model/index.js';
import { fuzz } from '../suites/fuzz/run.js';
import { emit } from './measure.js';

/** Fuzzing throughput, model against model, on one core (after a warm-up run). */
async function main(): Promise<void> {
  await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 50, seed: 1 });
  const report = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 500, seed: 2 });
  emit('fuzzing', [
    {
      name: `fuzzing, model vs model (${report.commands} commands)`,
      value: report.commandsPerSecond,
      unit: 'commands/s',
      target: { text: '>= 20000 (issue 6)', met: report.commandsPerSecond >= 20_000 },
      command: 'rvt-conform fuzz --runs 500',
    },
  ]);
}

await main();
