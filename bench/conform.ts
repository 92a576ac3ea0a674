import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emit, time } from './measure.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run conform` wall time as a user runs it (the build is up to date, as after npm ci). */
async function main(): Promise<void> {
  const out = join(mkdtempSync(join(tmpdir(), 'rvt-bench-')), 'report');
  const t = await time(async () => {
    execFileSync('npm', ['run', '-s', 'conform', '--', '--quiet', '--out', out], { cwd: ROOT, stdio: 'ignore' });
  }, 5);
  emit('conform', [{ name: 'npm run conform wall time', value: t.medianMs, unit: 'ms', target: { text: '< 5000 ms (issue 2)', met: t.medianMs < 5000 }, command: 'time npm run conform' }]);
}

await main();
