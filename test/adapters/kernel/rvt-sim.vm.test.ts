// Boots the VM once with rvt_sim0 presenting itself as a qib device, and runs rdma-core's own
// pingpong programs on it (rdma-core's ipathverbs provider over the stock rdmavt.ko): RC through
// rvt_ruc_loopback(), SRQ receives through rvt_get_rwqe(), and UD through the simulated device's
// qib_ud_loopback(), which no shared case reaches (no adapter creates address handles).
// Run alone with: npx vitest run test/adapters/kernel/rvt-sim.vm.test.ts
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VM_TEST_TIMEOUT_MS, runGuestScript, vmSkipReason } from '../../vm/helpers.js';

const PROGRAMS = ['ibv_rc_pingpong', 'ibv_srq_pingpong', 'ibv_ud_pingpong'] as const;
const ITERATIONS = 50;

describe.skipIf(vmSkipReason !== undefined)(`rdma-core's pingpongs on rvt_sim0${vmSkipReason ? ` (skipped: ${vmSkipReason})` : ''}`, () => {
  let work = '';
  const read = (name: string) => readFileSync(join(work, name), 'utf8');

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rvt-sim-test-'));
    // Each program is a server and a client on the same device, exchanging addresses over TCP.
    const script = `
      port=18515
      for prog in ${PROGRAMS.join(' ')}; do
        port=$((port + 1))
        $prog -d rvt_sim0 -i 1 -s 256 -n ${ITERATIONS} -p $port > $prog-server.log 2>&1 &
        server=$!
        for i in $(seq 1 100); do ss -ltn | grep -q ":$port " && break; sleep 0.1; done
        timeout 60 $prog -d rvt_sim0 -i 1 -s 256 -n ${ITERATIONS} -p $port localhost > $prog-client.log 2>&1
        echo "$prog client $?" >> exits
        wait $server; echo "$prog server $?" >> exits
      done
      dmesg > dmesg.txt`;
    await runGuestScript(script, { workDir: work, device: 'rvt_sim0', deviceOptions: { qibId: true } });
  }, VM_TEST_TIMEOUT_MS);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each(PROGRAMS)('%s completes its iterations, server and client', (prog) => {
    expect(read('exits')).toContain(`${prog} client 0`);
    expect(read('exits')).toContain(`${prog} server 0`);
    // The programs print "<n> iters in <t> seconds" only after every completion came back.
    expect(read(`${prog}-client.log`)).toMatch(new RegExp(`\\b${ITERATIONS} iters in`));
  });

  it("leaves the kernel log free of oopses, and of warnings but rdmavt's own FORTIFY one", () => {
    const dmesg = read('dmesg.txt');
    expect(dmesg).toMatch(/registered rvt_sim0 on rdmavt \(as a qib device\)/);
    expect(dmesg).not.toMatch(/BUG:|Oops|general protection/);
    // rvt_post_send's memcpy of a whole ib_ud_wr into wqe->wr (expectations/kernel-rdmavt.yaml):
    // rdmavt's, not the simulated device's, printed once per boot.
    const warnings = dmesg.split('\n').filter((line) => line.includes('WARNING:'));
    expect(warnings.every((line) => /at drivers\/infiniband\/sw\/rdmavt\/qp\.c:2041 rvt_post_send/.test(line)), warnings.join('\n')).toBe(true);
  });
});
