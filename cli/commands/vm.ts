import { type Command, InvalidArgumentError } from 'commander';
import { VM_DEVICES, type VmDevice, isVmDevice } from '../../vm/devices.js';
import { kernelLabel } from '../../vm/kernel.js';
import { runReproInVm, VERDICT_EXIT } from './vm-repro.js';
import { runInVm, startEstimate } from '../../vm/run.js';
import { UserError } from '../../spec/errors.js';
import { MAX_TIMER_SECONDS } from '../options.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';

/**
 * `rvt-conform vm [options] -- <command...>`: runs a command next to a real rxe device.
 * The `--` keeps the command's own options away from ours.
 */
export function registerVmCommand(program: Command): void {
  program
    .command('vm')
    .description(
      'run a command in a QEMU VM (KVM where it works, else TCG) that has the Soft-RoCE device rxe0; the host root is shared ' +
        'read-only, the work directory read-write, and the command exits with the guest status',
    )
    .argument('[command...]', 'the program and its arguments, after -- (or --run-repro instead)')
    .option('--timeout <seconds>', 'kill the VM after this many seconds', parseSeconds, 900)
    .option('--work-dir <dir>', "shared read-write at the same path; the command's working directory", process.cwd())
    .option('--device <name>', `bring up this device too (one of ${VM_DEVICES.join(', ')}; rxe0 is always there); default rxe0, or with --run-repro a module's recorded device`, parseDevice)
    .option('--kernel <kernel>', KERNEL_OPTION_HELP)
    .option(
      '--run-repro <path>',
      `instead of a command: run a reproducer of rvt-conform repro or findings on --device (a module's folder: built against the booted kernel, cached, and insmodded; a program's .c, or a findings folder with repro.c or hostile.c and its scenario: compiled on the host, run in the guest) and print its kernel log and any splat; exit 0 reproduced, 1 not, ${VERDICT_EXIT.noVerdict} no verdict (it crashed, or the kernel went down)`,
    )
    .addHelpText('after', '\nExample: rvt-conform repro post_send/rdma-write --from results.json --out r && rvt-conform vm --run-repro r --device rvt_sim0')
    .action(async (command: string[], options: { timeout: number; workDir: string; device?: VmDevice; kernel?: string; runRepro?: string }) => {
      const kernel = kernelOf(options.kernel);
      if (options.runRepro !== undefined) {
        if (command.length > 0) throw new UserError('--run-repro runs the reproducer: give it no command as well');
        process.exitCode = await runReproInVm(options.runRepro, { device: options.device, kernel, timeoutMs: options.timeout * 1000, workDir: options.workDir });
        return;
      }
      if (command.length === 0) throw new UserError('vm needs a command after -- (or --run-repro PATH)', { hint: 'rvt-conform vm -- uname -a' });
      const device = options.device ?? 'rxe0';
      process.stderr.write(`rvt-conform vm: booting the VM (${startEstimate()})\n`);
      const result = await runInVm({ command, workDir: options.workDir, device, timeoutMs: options.timeout * 1000, ...(kernel === undefined ? {} : { kernel }) });
      process.stderr.write(
        `rvt-conform vm: exit status ${result.exitCode} after ${(result.durationMs / 1000).toFixed(1)} s ` +
          `(kernel ${kernelLabel(result.kernel)}, ${result.accel.accel}; console log ${result.consoleLogPath})\n`,
      );
      process.exitCode = result.exitCode;
    });
}

function parseDevice(value: string): VmDevice {
  if (!isVmDevice(value)) throw new InvalidArgumentError(`expected one of ${VM_DEVICES.join(', ')}`);
  return value;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  // A timer cannot wait longer: the VM would be killed after 1 ms.
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMER_SECONDS) throw new InvalidArgumentError(`expected a positive number of seconds, at most ${MAX_TIMER_SECONDS}`);
  return seconds;
}
