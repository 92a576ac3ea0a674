import { describe, expect, it } from 'vitest';
import { kernelLogWatch } from '../../../adapters/kernel/adapter.js';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KernelLog, type KmsgRecord, consoleSplat, findSplat, isSplatLine, parseKmsgRecord } from '../../../adapters/kernel/kmsg.js';

const rec = (text: string, seq = 1): KmsgRecord => ({ seq, usec: seq * 1000, text });

describe('the kernel log', () => {
  it('quotes the first splat of the guest console, with the two lines before it (a WARN\'s own message)', () => {
    const console = ['boot', 'x', 'memcpy: detected field-spanning write', '[ 1.0] WARNING: CPU: 0 PID: 1 at qp.c:2041', 'RIP: rvt_post_send', 'end'].join('\n');
    expect(consoleSplat(console).slice(0, 3)).toEqual(['x', 'memcpy: detected field-spanning write', '[ 1.0] WARNING: CPU: 0 PID: 1 at qp.c:2041']);
    expect(consoleSplat('a clean boot\n')).toEqual([]);
  });

  it("quotes the first splat after the last record the relay carried: the guest's RCU stall, not the known WARN it had told (fuzz --seed 4242, run 2)", () => {
    const console = readFileSync(new URL('../../fixtures/fuzz/console-fortify-then-stall.log', import.meta.url), 'utf8');
    expect(consoleSplat(console)[2]).toMatch(/WARNING: CPU: 0 PID: 152 at drivers\/infiniband\/sw\/rdmavt\/qp\.c:2041/);
    // the WARN's last line reached the host at 14.357202 s
    const after = consoleSplat(console, 14_357_202);
    expect(after[2]).toMatch(/^\[\s+24\.466081\] rcu: INFO: rcu_preempt detected stalls/);
    expect(after.some((line) => line.includes('rvt_get_rwqe'))).toBe(true);
    expect(consoleSplat(console, 84_000_000)).toEqual([]);
  });
  it("reads a file the VM's records are appended to: several a read, one cut between two appends, continuation lines dropped", () => {
    const dir = mkdtempSync(join(tmpdir(), 'kmsg-'));
    try {
      const file = join(dir, 'kmsg');
      writeFileSync(file, '6,1,10,-;what the boot said before\n');
      const log = new KernelLog(file);
      appendFileSync(file, '6,2,20,-;rvtc: session 1\n SUBSYSTEM=misc\n4,3,30,-;WARNING: CPU: 0 PID: 9 at qp.c:20');
      expect(log.drain()).toEqual([{ seq: 2, usec: 20, text: 'rvtc: session 1' }]);
      appendFileSync(file, '41 rvt_post_one_wr\n');
      expect(log.drain()).toEqual([{ seq: 3, usec: 30, text: 'WARNING: CPU: 0 PID: 9 at qp.c:2041 rvt_post_one_wr' }]);
      expect(log.drain()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses /dev/kmsg records and drops their continuation lines', () => {
    expect(parseKmsgRecord('4,1234,78761122,-;BUG: scheduling while atomic: node/161/0x00000002\n SUBSYSTEM=x\n')).toEqual({
      seq: 1234,
      usec: 78761122,
      text: 'BUG: scheduling while atomic: node/161/0x00000002',
    });
    expect(parseKmsgRecord('not a record')).toBeUndefined();
  });

  it('tells a splat line by the kernel\'s own words (a reproducer\'s quote of one must avoid them)', () => {
    expect(isSplatLine('WARNING: CPU: 1 PID: 175 at drivers/infiniband/sw/rdmavt/qp.c:2041 rvt_post_send+0x7e6/0x8a0 [rdmavt]')).toBe(true);
    expect(isSplatLine('rvt-repro: the recording got WARNING - CPU: 1 PID: 175 at drivers/infiniband/sw/rdmavt/qp.c:2041')).toBe(false);
  });

  it('finds no splat in a clean log', () => {
    expect(findSplat([rec('rvtc: loading out-of-tree module taints kernel.'), rec('infiniband rxe0: added eth0')])).toBeUndefined();
  });

  it.each([
    ['BUG: scheduling while atomic: node/161/0x00000002', false],
    ['WARNING: CPU: 0 PID: 161 at adapters/kernel/module/rvtc.c:1100 rvtc_test_fault+0x2b/0x60 [rvtc]', false],
    ['BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580', false],
    ['WARNING: possible circular locking dependency detected', false],
    ['rcu: INFO: rcu_preempt self-detected stall on CPU', false],
    ['watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [node:161]', false],
    ['BUG: unable to handle page fault for address: ffffc90000152000', true],
    ['Oops: 0002 [#1] PREEMPT SMP NOPTI', true],
    ['kernel BUG at drivers/infiniband/sw/rdmavt/qp.c:1234!', true],
  ])('reports %s (fatal: %s) with the lines around it', (line, fatal) => {
    const splat = findSplat([rec('before', 1), rec(line, 2), rec('Call Trace:', 3), rec(' rvtc_write+0x1c4/0x200 [rvtc]', 4)]);
    expect(splat?.fatal).toBe(fatal);
    expect(splat?.lines).toEqual(['[0.001000] before', `[0.002000] ${line}`, '[0.003000] Call Trace:', '[0.004000]  rvtc_write+0x1c4/0x200 [rvtc]']);
  });

  it('watches each case on its own: what was logged before the case began is not its splat', () => {
    const pending: KmsgRecord[][] = [[rec('WARNING: from an earlier case')], [], [], [rec('BUG: scheduling while atomic: node/1/0x2')]];
    const watch = kernelLogWatch({ drain: () => pending.shift() ?? [] });
    expect(watch.start().end()).toBeUndefined();
    expect(watch.start().end()).toMatchObject({ fatal: false, lines: ['[0.001000] BUG: scheduling while atomic: node/1/0x2'] });
  });

  it('gives spans that overlap (an agent\'s clients) everything logged in their own time, whichever of them read it', () => {
    // what each drain reads: at a's start, b's start, c's start, c's end, b's end, a's end, then d's start
    const pending: KmsgRecord[][] = [
      [rec('WARNING: before any', 1)],
      [rec('infiniband rxe0: a line while only a runs', 2)],
      [],
      [rec('WARNING: CPU: 0 PID: 9 at qp.c:2041', 3)],
      [],
      [],
      [rec('WARNING: after a, b and c, before d', 4)],
    ];
    const watch = kernelLogWatch({ drain: () => pending.shift() ?? [] });
    const a = watch.start();
    const b = watch.start();
    const c = watch.start();
    expect(c.end()).toMatchObject({ fatal: false, lines: ['[0.003000] WARNING: CPU: 0 PID: 9 at qp.c:2041'] });
    // c's end read the splat while a and b were open: it is theirs too
    expect(b.end()?.lines).toEqual(['[0.003000] WARNING: CPU: 0 PID: 9 at qp.c:2041']);
    expect(a.end()?.lines).toEqual(['[0.002000] infiniband rxe0: a line while only a runs', '[0.003000] WARNING: CPU: 0 PID: 9 at qp.c:2041']);
    // what the drain at a span's start reads is before it: not its splat
    expect(watch.start().end()).toBeUndefined();
  });
});
