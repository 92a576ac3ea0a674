// On a host without RDMA (these machines), `run --adapter ibverbs` (and its old name rxe) must refuse with exit 2, the
// reason code and what to do, before running any case.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli-in-process.js';
import { addonPath } from '../../../adapters/ibverbs/native/index.js';

const hostHasRdma = existsSync('/sys/class/infiniband') && readdirSync('/sys/class/infiniband').length > 0;

describe.skipIf(hostHasRdma || !existsSync(addonPath()))('--adapter ibverbs without a device', () => {
  it('exits 2 with the reason and the way to a device', async () => {
    const run = await runCli(['run', '--adapter', 'ibverbs', '--quiet']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('(no-rdma-device)');
    expect(run.stderr).toContain('--adapter ibverbs --vm');
  });

  it('names the missing device given with --device', async () => {
    const run = await runCli(['run', '--adapter', 'rxe', '--device', 'mlx5_9', '--quiet']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/\(no-such-device\): no device mlx5_9/);
  });

  it('refuses --vm for another adapter', async () => {
    const run = await runCli(['run', '--adapter', 'model', '--vm']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--vm is for --adapter ibverbs');
  });
});
