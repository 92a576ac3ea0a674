import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_STRUCTS, MAX_REQUEST, MAX_STEPS, Op, RVTC_MAGIC, RVTC_VERSION, RecvWrS, SendWrS } from '../../../adapters/kernel/abi.js';
import { ROOT } from '../../helpers.js';

const HEADER_DIR = join(ROOT, 'adapters/kernel/module');
const dir = mkdtempSync(join(tmpdir(), 'rvtc-abi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compiles a program against rvtc_abi.h that prints what the C compiler says; returns its lines. */
function compileAndRun(body: string): string[] {
  const source = join(dir, 'layout.c');
  writeFileSync(source, `#include <stddef.h>\n#include <stdio.h>\n#include "rvtc_abi.h"\nint main(void) {\n${body}\nreturn 0;\n}\n`);
  execFileSync('cc', ['-Wall', '-Werror', '-I', HEADER_DIR, '-o', join(dir, 'layout'), source]);
  return execFileSync(join(dir, 'layout'), { encoding: 'utf8' }).trim().split('\n');
}

describe('the rvtc ABI (adapters/kernel/abi.ts against module/rvtc_abi.h)', () => {
  it('has the C size and every field offset of each struct', () => {
    const lines: string[] = [];
    const expected: string[] = [];
    for (const s of ALL_STRUCTS) {
      lines.push(`printf("${s.name} size %zu\\n", sizeof(struct ${s.name}));`);
      expected.push(`${s.name} size ${s.size}`);
      for (const [field] of s.fields) {
        lines.push(`printf("${s.name}.${field} %zu\\n", offsetof(struct ${s.name}, ${field}));`);
        expected.push(`${s.name}.${field} ${s.offsets[field]}`);
      }
    }
    expect(compileAndRun(lines.join('\n'))).toEqual(expected);
  });

  it('has the C magic and version: a change to the structs bumps both sides', () => {
    expect(compileAndRun('printf("%u %u\\n", RVTC_MAGIC, RVTC_VERSION);')).toEqual([`${RVTC_MAGIC} ${RVTC_VERSION}`]);
  });

  it('has the C bounds a batch is split by: the request size and the sub-requests per BATCH', () => {
    expect(compileAndRun('printf("%u %u\\n", RVTC_MAX_REQUEST, RVTC_MAX_STEPS);')).toEqual([`${MAX_REQUEST} ${MAX_STEPS}`]);
  });

  it('has the C value of each request code', () => {
    const names = Object.keys(Op);
    const out = compileAndRun(names.map((n) => `printf("%d\\n", RVTC_OP_${n});`).join('\n'));
    expect(out.map(Number)).toEqual(Object.values(Op));
  });

  it('round-trips a struct through encode and read, zero-filling what is left out', () => {
    const buf = SendWrS.encode({ wr_id: 2n ** 64n - 1n, opcode: 4, num_sge: -1 });
    expect(buf.length).toBe(SendWrS.size);
    expect(SendWrS.read(buf, 0)).toEqual({ wr_id: 2n ** 64n - 1n, remote_addr: 0n, rkey: 0, opcode: 4, send_flags: 0, imm_data: 0, num_sge: -1, n_sge: 0 });
    expect(RecvWrS.read(RecvWrS.encode({ num_sge: -2 }), 0).num_sge).toBe(-2);
  });
});
