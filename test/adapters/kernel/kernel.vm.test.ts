// Boots the VM once (about 30 s) with the rvtc module loaded and checks, on rxe0, that a kernel
// splat during a case fails it with the log lines, directly and through the gRPC agent, and that a
// killed session leaves nothing behind.
// Run alone with: npx vitest run test/adapters/kernel/kernel.vm.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveKernel } from '../../../vm/kernel.js';
import { rvtcModule } from '../../../vm/rvtc.js';
import { RunResults } from '../../../reports/results-schema.js';
import { CLI } from '../../helpers.js';
import { VM_TEST_TIMEOUT_MS, runGuestScript, vmSkipReason } from '../../vm/helpers.js';

const HOLDER = fileURLToPath(new URL('./fixtures/hold-resources.mjs', import.meta.url));
const CASE = 'post_srq_recv/single-wr';

type Resources = { pd: number; cq: number; qp: number; srq: number }[];

describe.skipIf(vmSkipReason !== undefined)(`kernel adapter on rxe0${vmSkipReason ? ` (skipped: ${vmSkipReason})` : ''}`, () => {
  let work = '';
  const read = (name: string) => readFileSync(join(work, name), 'utf8');
  const results = (name: string) => RunResults.parse(JSON.parse(read(`${name}/results.json`)));
  const resources = (name: string) => (JSON.parse(read(name)) as Resources).find((r) => 'pd' in r) as Resources[number];

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rvt-kernel-test-'));
    const script = `
      echo 1 > /sys/module/rvtc/parameters/test_faults
      run() { "$NODE" "$CLI" run --adapter kernel --device rxe0 --case '${CASE}' --quiet --out "$1"; echo "$1 $?" >> exits; }
      run clean
      RVT_KERNEL_FAULT_BEFORE=postSrqRecv:sleep run sleep
      RVT_KERNEL_FAULT_BEFORE=postSrqRecv:warn run warn
      RVT_KERNEL_FAULT_BEFORE=postSrqRecv:warn "$NODE" "$CLI" agent --adapter kernel --device rxe0 --listen 127.0.0.1:7471 2> agent.log &
      agent=$!
      for i in $(seq 1 600); do grep -q serving agent.log && break; sleep 0.1; done
      "$NODE" "$CLI" run --adapter grpc --target 127.0.0.1:7471 --case '${CASE}' --quiet --out grpc-warn; echo "grpc-warn $?" >> exits
      kill "$agent"; wait "$agent"
      rdma -j resource show > before.json
      "$NODE" "$HOLDER" rxe0 > holder.log 2>&1 &
      holder=$!
      for i in $(seq 1 600); do grep -q ready holder.log && break; sleep 0.1; done
      rdma -j resource show > held.json
      kill -9 "$holder"; wait "$holder"
      rdma -j resource show > after.json
      rmmod rvtc; echo "rmmod $?" >> exits
      dmesg > dmesg.txt`;
    await runGuestScript(script, { workDir: work, modules: [await rvtcModule(resolveKernel())], env: { NODE: process.execPath, CLI, HOLDER } });
  }, VM_TEST_TIMEOUT_MS);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('passes the case when the kernel log stays clean', () => {
    expect(results('clean').cases.find((c) => c.id === CASE)?.status).toBe('pass');
  });

  it.each([
    ['sleep', /BUG: scheduling while atomic/],
    ['warn', /WARNING: .*rvtc_test_fault/],
  ])('fails the same case when the module %ss in atomic context / WARNs during it, with the log lines as evidence', (run, line) => {
    const kase = results(run).cases.find((c) => c.id === CASE);
    expect(kase?.status).toBe('fail');
    const evidence = kase?.checks.filter((c) => c.status === 'fail').flatMap((c) => c.actual as string[]) ?? [];
    expect(evidence.some((l) => line.test(l))).toBe(true);
    expect(read('exits')).toContain(`${run} 1`);
  });

  it("fails it through the gRPC agent too: the agent reads the guest's kernel log around the case it runs for the client", () => {
    const kase = results('grpc-warn').cases.find((c) => c.id === CASE);
    expect(results('grpc-warn').adapter.via).toBe('grpc://127.0.0.1:7471');
    expect(kase?.status).toBe('fail');
    const evidence = kase?.checks.filter((c) => c.status === 'fail').flatMap((c) => c.actual as string[]) ?? [];
    expect(evidence.some((l) => /WARNING: .*rvtc_test_fault/.test(l))).toBe(true);
    expect(read('exits')).toContain('grpc-warn 1');
  });

  it('releases every PD, CQ, SRQ and QP of a session whose process was killed, and unloads cleanly', () => {
    expect(read('holder.log')).toMatch(/^ready /);
    const before = resources('before.json');
    const held = resources('held.json');
    expect([held.pd, held.cq, held.srq, held.qp]).toEqual([before.pd + 1, before.cq + 1, before.srq + 1, before.qp + 1]);
    expect(resources('after.json')).toEqual(before);
    expect(read('exits')).toContain('rmmod 0');
  });
});
