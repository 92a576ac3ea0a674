import { writeFileSync } from 'node:fs';

/**
 * The guest kernel's stall detectors made quick: a soft lockup is reported after 2 x
 * watchdog_thresh s and an RCU stall after rcu_cpu_stall_timeout s (the defaults, 20 s and 21 s,
 * and a CPU spinning with interrupts off under TCG printed nothing in 77 s), so a CPU stuck in the
 * driver shows in the kernel log while a harness still waits for what it owes.
 */
export const STALL_KNOBS: Readonly<Record<string, string>> = {
  '/proc/sys/kernel/watchdog_thresh': '5',
  '/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout': '10',
};

/** Writes each knob; returns the files it could not write (a kernel without that detector). */
export function applyKnobs(knobs: Readonly<Record<string, string>> = STALL_KNOBS): string[] {
  const failed: string[] = [];
  for (const [file, value] of Object.entries(knobs)) {
    try {
      writeFileSync(file, value);
    } catch {
      failed.push(file);
    }
  }
  return failed;
}
