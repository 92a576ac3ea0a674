import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ElfFunction, dwarfInlineCopies, elfFunctions, inlineSiteTable } from '../../../adapters/kernel/inline-sites-dwarf.js';
import { InlineSiteTable } from '../../../adapters/kernel/inline-sites.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** llvm-dwarfdump 14's text of Debian's 6.1.0-57 rdmavt.ko, cut down to rvt_get_rwqe and the two copies of get_rvt_head in it. */
const DWARF = fixture('rdmavt-inline.dwarf');
/** readelf -sW / -SW of the same module, a few lines each. */
const FUNCTIONS = elfFunctions(fixture('rdmavt-symbols.txt'), fixture('rdmavt-sections.txt'));

const build = (dwarf: string, functions: readonly ElfFunction[] = FUNCTIONS) =>
  inlineSiteTable({ module: 'rdmavt', release: '6.1.0-57-amd64', source: 'linux-image-6.1.0-57-amd64-dbg 6.1.192-3', buildId: 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca', sourceDir: 'drivers/infiniband/sw/rdmavt/', dwarf, functions });

describe('the inline-site table from the DWARF', () => {
  it('finds each inlined copy, where it can be entered (DW_AT_entry_pc and each range\'s start) and the function the compiler emitted around it', () => {
    expect(dwarfInlineCopies(DWARF)).toEqual([
      { function: 'get_rvt_head', declFile: 'debian/build/build_amd64_none_amd64/drivers/infiniband/sw/rdmavt/qp.c', addresses: [0x47d1, 0x4ac5], caller: 'rvt_get_rwqe' },
      { function: 'get_rvt_head', declFile: 'debian/build/build_amd64_none_amd64/drivers/infiniband/sw/rdmavt/qp.c', addresses: [0x4857, 0x4b3a], caller: 'rvt_get_rwqe' },
    ]);
  });

  it('reads the function symbols with their sections', () => {
    expect(FUNCTIONS).toContainEqual({ name: 'rvt_get_rwqe', value: 0x4730, size: 1165, section: '.text' });
    expect(FUNCTIONS).toContainEqual({ name: 'rvt_register_device.cold', value: 0, size: 55, section: '.text.unlikely' });
    expect(FUNCTIONS).toContainEqual({ name: 'init_module', value: 0, size: 37, section: '.init.text' });
  });

  it('names each copy by the symbol kallsyms will show and its offset in it: what a kprobe takes', () => {
    const { table, skipped } = build(DWARF);
    expect(InlineSiteTable.parse(table)).toEqual(table);
    expect(table.sites).toEqual({ get_rvt_head: ['rvt_get_rwqe+0xa1', 'rvt_get_rwqe+0x395', 'rvt_get_rwqe+0x127', 'rvt_get_rwqe+0x40a'].sort() });
    expect(skipped).toEqual([]);
  });

  it('without an entry_pc, takes the start of each range that holds code, and DW_AT_low_pc for a copy in one piece', () => {
    const noEntry = DWARF.replace('DW_AT_entry_pc\t(0x00000000000047d1)\n', '');
    const emptyFirst = noEntry.replace('[0x00000000000047d1, 0x00000000000047df)', '[0x00000000000047d1, 0x00000000000047d1)');
    expect(dwarfInlineCopies(emptyFirst)[0]?.addresses).toEqual([0x4ac5]);
    const onePiece = noEntry.replace(/DW_AT_ranges\t\(0x00000da3\n.*\n.*\)\)/, 'DW_AT_low_pc\t(0x00000000000047d5)');
    expect(dwarfInlineCopies(onePiece)[0]?.addresses).toEqual([0x47d5]);
  });

  it('keeps a clone\'s own symbol name (.part.0), since that is the name kallsyms knows', () => {
    const clone = DWARF.replaceAll('"rvt_get_rwqe"', '"rvt_send_complete"');
    const functions = [...FUNCTIONS.filter((f) => f.name !== 'rvt_get_rwqe'), { name: 'rvt_send_complete.part.0', value: 0x4700, size: 0x200, section: '.text' }];
    expect(build(clone, functions).table.sites).toEqual({ get_rvt_head: ['rvt_send_complete.part.0+0x157', 'rvt_send_complete.part.0+0xd1'] });
  });

  it('leaves out copies in init or exit code (freed or not yet run when a case runs) and copies no symbol of the caller holds, saying why', () => {
    const inInit = build(DWARF, [...FUNCTIONS.filter((f) => f.name !== 'rvt_get_rwqe'), { name: 'rvt_get_rwqe', value: 0x4730, size: 1165, section: '.init.text' }]);
    expect(inInit.table.sites).toEqual({});
    expect(inInit.skipped.map((s) => s.why)).toEqual(Array(4).fill('inlined into rvt_get_rwqe, module init or exit code'));
    expect(build(DWARF, []).skipped[0]?.why).toBe('no symbol of rvt_get_rwqe holds it');
  });

  it("lists only the module's own functions: not a header's, not the tracepoints' generated plumbing", () => {
    expect(build(DWARF.replaceAll('drivers/infiniband/sw/rdmavt/qp.c")', 'include/rdma/rdmavt_qp.h")')).table.sites).toEqual({});
    expect(build(DWARF.replaceAll('"get_rvt_head"', '"trace_rvt_dbg"')).table.sites).toEqual({});
  });
});
