import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIdFromNote, inlineSiteTableFor, loadInlineSiteTables, loadedModuleBuildId } from '../../../adapters/kernel/inline-sites.js';
import { UserError } from '../../../spec/errors.js';

/** The .note.gnu.build-id section of Debian's 6.1.0-57 rdmavt.ko (objcopy --only-section), the bytes sysfs shows for it. */
const NOTE = readFileSync(new URL('./fixtures/rdmavt.note.gnu.build-id', import.meta.url));
const RDMAVT_6_1_0_57 = 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca';

describe('inline-site tables', () => {
  it('reads a module build-id from its ELF note, after any other note, and nothing from bytes that are not one', () => {
    expect(buildIdFromNote(NOTE)).toBe(RDMAVT_6_1_0_57);
    // a Linux note first (namesz 6, "Linux\0" padded to 8, descsz 4), then the GNU one
    const linux = Buffer.concat([Buffer.from([6, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0]), Buffer.from('Linux\0\0\0'), Buffer.from([0, 0, 0, 0])]);
    expect(buildIdFromNote(Buffer.concat([linux, NOTE]))).toBe(RDMAVT_6_1_0_57);
    expect(buildIdFromNote(NOTE.subarray(0, 30))).toBeUndefined();
    expect(buildIdFromNote(Buffer.alloc(0))).toBeUndefined();
  });

  it('reads the loaded module\'s build-id from sysfs, and says nothing for a module not loaded', () => {
    const sys = mkdtempSync(join(tmpdir(), 'sys-module-'));
    mkdirSync(join(sys, 'rdmavt', 'notes'), { recursive: true });
    writeFileSync(join(sys, 'rdmavt', 'notes', '.note.gnu.build-id'), NOTE);
    expect(loadedModuleBuildId('rdmavt', sys)).toBe(RDMAVT_6_1_0_57);
    expect(loadedModuleBuildId('siw', sys)).toBeUndefined();
  });

  it('holds a committed table for Debian 6.1.0-57\'s rdmavt, with the inlined functions of rvt_post_srq_recv(9)\'s SEE ALSO', () => {
    const table = inlineSiteTableFor('rdmavt', RDMAVT_6_1_0_57, loadInlineSiteTables());
    expect(table?.source).toBe('linux-image-6.1.0-57-amd64-dbg 6.1.192-3');
    for (const fn of ['rvt_post_one_wr', 'get_rvt_head', 'rvt_qp_is_avail', 'rvt_qp_valid_operation', 'rvt_init_qp', 'rvt_reset_qp', 'rvt_remove_qp', 'alloc_qpn', 'get_allowed_ops']) {
      expect(table?.sites[fn]?.length, fn).toBeGreaterThan(0);
    }
    // the copies sit in run-time text only: module init and exit code is gone or not yet run when a case runs
    expect(Object.values(table?.sites ?? {}).flat().some((site) => site.startsWith('init_module') || site.startsWith('cleanup_module'))).toBe(false);
  });

  it('matches a table to the exact build only', () => {
    const tables = loadInlineSiteTables();
    expect(inlineSiteTableFor('rdmavt', '0'.repeat(40), tables)).toBeUndefined();
    expect(inlineSiteTableFor('rdma_rxe', RDMAVT_6_1_0_57, tables)).toBeUndefined();
  });

  it('names a malformed table rather than skipping it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inline-sites-'));
    writeFileSync(join(dir, 'rdmavt-x.json'), JSON.stringify({ module: 'rdmavt', release: 'x', source: 'y', buildId: 'c4c8', sites: {} }));
    expect(() => loadInlineSiteTables(dir)).toThrow(UserError);
    expect(() => loadInlineSiteTables(dir)).toThrow(/rdmavt-x\.json: not an inline-site table \(buildId/);
    expect(loadInlineSiteTables(join(dir, 'none'))).toEqual([]);
  });
});
