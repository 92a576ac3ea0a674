import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Host load for a stability run: `count` processes that spin on a core each, beside the VM, so a
 * verdict that holds only on a quiet host shows. Stopped (killed) by `stop`, or when this process exits.
 */
export function startBusyLoops(count: number): { pids: number[]; stop: () => void } {
  const loops: ChildProcess[] = Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
  const stop = () => {
    for (const loop of loops) loop.kill('SIGKILL');
    process.off('exit', stop);
  };
  process.on('exit', stop);
  return { pids: loops.map((loop) => loop.pid ?? 0), stop };
}
