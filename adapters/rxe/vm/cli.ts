import { type Command, InvalidArgumentError } from 'commander';
import { runInVm } from './run.js';

/**
 * `rvt-conform vm [options] -- <command...>`: runs a command next to a real rxe device.
 * The `--` keeps the command's own options away from ours.
 */
export function registerVmCommand(program: Command): void {
  program
    .command('vm')
    .description(
      'run a command in a QEMU VM (TCG) that has the Soft-RoCE device rxe0; the host root is shared ' +
        'read-only, the work directory read-write, and the command exits with the guest status',
    )
    .argument('<command...>', 'the program and its arguments, after --')
    .option('--timeout <seconds>', 'kill the VM after this many seconds', parseSeconds, 900)
    .option('--work-dir <dir>', "shared read-write at the same path; the command's working directory", process.cwd())
    .action(async (command: string[], options: { timeout: number; workDir: string }) => {
      process.stderr.write('rvt-conform vm: booting the rxe VM (about 10 s before the command starts)\n');
      const result = await runInVm({ command, workDir: options.workDir, timeoutMs: options.timeout * 1000 });
      process.stderr.write(
        `rvt-conform vm: exit status ${result.exitCode} after ${(result.durationMs / 1000).toFixed(1)} s ` +
          `(kernel ${result.kernelVersion}; console log ${result.consoleLogPath})\n`,
      );
      process.exitCode = result.exitCode;
    });
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return seconds;
}
