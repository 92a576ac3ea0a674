import { describe, expect, it } from 'vitest';
import { kernelCoverageModule } from '../../cli/kernel-coverage.js';
import { guestArgs } from '../../guest/run-in-vm.js';
import { UserError } from '../../spec/errors.js';
import { runCli } from '../cli-in-process.js';

describe('--kernel-coverage', () => {
  it("traces each VM device's driver, or the module named", () => {
    expect(['rvt_sim0', 'rxe0', 'siw0', undefined].map((device) => kernelCoverageModule(true, 'kernel', device))).toEqual(['rdmavt', 'rdma_rxe', 'siw', 'rdma_rxe']);
    expect(kernelCoverageModule(true, 'ibverbs', 'rvt_sim0')).toBe('rdmavt');
    expect(kernelCoverageModule('mlx5_ib', 'ibverbs', 'mlx5_0')).toBe('mlx5_ib');
  });

  it.each([
    ['a device whose driver it does not know', true, 'ibverbs', 'mlx5_0', /does not know the module of mlx5_0/],
    ['an adapter whose verbs do not run in this kernel', true, 'model', undefined, /--adapter model does not run on this machine/],
    ['a filter that is not a module name', 'rdmavt *', 'kernel', 'rvt_sim0', /not a module name/],
  ] as const)('refuses %s', (_what, flag, adapter, device, message) => {
    expect(() => kernelCoverageModule(flag, adapter, device)).toThrow(UserError);
    expect(() => kernelCoverageModule(flag, adapter, device)).toThrow(message);
  });

  it('is refused on the model before anything runs (exit 2, one line)', async () => {
    const r = await runCli(['run', '--kernel-coverage', '--out', 'x-never-written']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--kernel-coverage traces a kernel driver/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('reaches the guest run: the VM host passes it on', () => {
    expect(guestArgs(['--adapter', 'kernel', '--device', 'rvt_sim0', '--vm', '--kernel-coverage', '--out', 'x'])).toEqual(['--adapter', 'kernel', '--device', 'rvt_sim0', '--kernel-coverage', '--out', 'x']);
  });
});
