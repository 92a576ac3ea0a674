// On a host without RDMA (these machines), `run --adapter ibverbs` (and its old name rxe) must refuse with exit 2, the
// reason code and what to do, before running any case.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { addonPath } from '../../../adapters/rxe/native/index.js';

const MAIN = fileURLToPath(new URL('../../../dist/cli/main.js', import.meta.url));
const hostHasRdma = existsSync('/sys/class/infiniband') && readdirSync('/sys/class/infiniband').length > 0;

describe.skipIf(hostHasRdma || !existsSync(addonPath()))('--adapter ibverbs without a device', () => {
  it('exits 2 with the reason and the way to a device', async () => {
    const run = await execa(process.execPath, [MAIN, 'run', '--adapter', 'ibverbs', '--quiet'], { reject: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('(no-rdma-device)');
    expect(run.stderr).toContain('--adapter ibverbs --vm');
  });

  it('names the missing device given with --device', async () => {
    const run = await execa(process.execPath, [MAIN, 'run', '--adapter', 'rxe', '--device', 'mlx5_9', '--quiet'], { reject: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/\(no-such-device\): no device mlx5_9/);
  });

  it('refuses --vm for another adapter', async () => {
    const run = await execa(process.execPath, [MAIN, 'run', '--adapter', 'model', '--vm'], { reject: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--vm is for --adapter ibverbs');
  });
});
