import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit, time } from './measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Wall time of a command as a user runs it from the repository root, median of `runs`. */
const wall = (command: string, args: string[], runs: number) =>
  time(async () => {
    execFileSync(command, args, { cwd: ROOT, stdio: 'ignore' });
  }, runs);

/** `npm run conform` (the build up to date, as after npm ci), and the CLI's start for --version and --help. */
async function main(): Promise<void> {
  const out = join(mkdtempSync(join(tmpdir(), 'rvt-bench-')), 'report');
  const conform = await wall('npm', ['run', '-s', 'conform', '--', '--quiet', '--out', out], 5);
  const cli = join(ROOT, 'dist/cli/main.js');
  const version = await wall(process.execPath, [cli, '--version'], 10);
  const help = await wall(process.execPath, [cli, '--help'], 10);
  emit('conform', [
    { name: 'npm run conform wall time', value: conform.medianMs, unit: 'ms', target: { text: '< 1000 ms (issue 18)', met: conform.medianMs < 1000 }, command: 'time npm run conform' },
    { name: 'rvt-conform --version', value: version.medianMs, unit: 'ms', target: { text: '< 300 ms (issue 18)', met: version.medianMs < 300 }, command: 'time node dist/cli/main.js --version' },
    { name: 'rvt-conform --help', value: help.medianMs, unit: 'ms', target: { text: '< 300 ms (issue 18)', met: help.medianMs < 300 }, command: 'time node dist/cli/main.js --help' },
  ]);
}

await main();
