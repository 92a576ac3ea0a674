import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startBusyLoops } from '../../cli/busy-load.js';

/** Whether a pid is a live process (a killed child is reaped by Node, or a zombie until then). */
const running = (pid: number) => {
  try {
    return !/^\d+ \([^)]*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const cpuTicks = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

describe('host busy loops for a stability run', () => {
  it('starts the loops as processes that spin, and stopping kills every one', async () => {
    const { pids, stop } = startBusyLoops(2);
    try {
      expect(pids).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(pids.every(running)).toBe(true);
      expect(pids.every((pid) => cpuTicks(pid) > 0)).toBe(true);
    } finally {
      stop();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pids.filter(running)).toEqual([]);
  });
});
