import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STALL_KNOBS, applyKnobs } from '../../vm/stall-knobs.js';

describe('the stall detectors made quick', () => {
  it('reports a soft lockup and an RCU stall within a fuzz drain late wait (20 s)', () => {
    expect(2 * Number(STALL_KNOBS['/proc/sys/kernel/watchdog_thresh'])).toBeLessThan(20);
    expect(Number(STALL_KNOBS['/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout'])).toBeLessThan(20);
  });

  it('writes each knob and names the ones it could not write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'knobs-'));
    const file = join(dir, 'watchdog_thresh');
    writeFileSync(file, '10');
    expect(applyKnobs({ [file]: '5', [join(dir, 'absent', 'rcu_cpu_stall_timeout')]: '10' })).toEqual([join(dir, 'absent', 'rcu_cpu_stall_timeout')]);
    expect(readFileSync(file, 'utf8')).toBe('5');
  });
});
