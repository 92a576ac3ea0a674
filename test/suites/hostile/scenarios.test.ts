import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_SOURCE, buildHostile } from '../../../guest/hostile-in-vm.js';
import { hostileUserClauses } from '../../../spec/clauses/hostile-user.js';
import { HOSTILE_SCENARIOS, HOSTILE_SCENARIO_NAMES, parseHostileLine } from '../../../suites/hostile/scenarios.js';
import { ROOT } from '../../helpers.js';

describe("the hostile program's line", () => {
  it('parses what the verbs answered into key=value pairs', () => {
    expect(parseHostileLine('noise\nhostile: srq-resize-num-sge-over: post_srq_recv=0 modify_srq=EINVAL send=0 send_wc=IBV_WC_RNR_RETRY_EXC_ERR send_recv_wc=none destroy_qp=0 destroy_srq=0\n')).toEqual({
      kind: 'ran',
      scenario: 'srq-resize-num-sge-over',
      answers: { post_srq_recv: '0', modify_srq: 'EINVAL', send: '0', send_wc: 'IBV_WC_RNR_RETRY_EXC_ERR', send_recv_wc: 'none', destroy_qp: '0', destroy_srq: '0' },
    });
  });

  it('tells a failed setup and a layout mismatch apart from an answer', () => {
    expect(parseHostileLine('hostile: rq-num-sge-over: setup-failed stage=ibv_get_device_list errno=ENOSYS\n')).toEqual({ kind: 'setup-failed', scenario: 'rq-num-sge-over', stage: 'ibv_get_device_list', errno: 'ENOSYS' });
    expect(parseHostileLine('hostile: rq-num-sge-over: layout-mismatch a posted WQE is not at the ring\'s head (this program ...)\n')).toMatchObject({ kind: 'layout-mismatch', detail: "a posted WQE is not at the ring's head (this program ...)" });
  });

  it('is absent when the program printed none or a malformed one', () => {
    expect(parseHostileLine('')).toBeUndefined();
    expect(parseHostileLine('hostile: rq-num-sge-over: send=0 garbage\n')).toBeUndefined();
    expect(parseHostileLine('hostile: rq-num-sge-over: setup-failed stage=x\n')).toBeUndefined();
  });
});

describe('the scenarios', () => {
  it('are each a case of one hostile clause, every clause checked by one', () => {
    expect(HOSTILE_SCENARIOS.map((s) => s.clause).sort()).toEqual(hostileUserClauses.map((c) => c.id).sort());
  });
});

// Compiles here; running it needs an RDMA device, which only the VM has.
const hasLibibverbs = existsSync('/usr/include/infiniband/verbs.h');
describe.skipIf(!hasLibibverbs)(`${HOSTILE_SOURCE} (needs a C compiler and libibverbs-dev)`, () => {
  let dir: string;
  let binary: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hostile-'));
    binary = await buildHostile(dir);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('builds without a warning', async () => {
    const built = await execa('cc', ['-Wall', '-Wextra', '-Werror', '-O2', '-o', join(dir, 'strict'), join(ROOT, HOSTILE_SOURCE), '-libverbs', '-lpthread'], { reject: false, all: true });
    expect(built.all).toBe('');
    expect(built.exitCode).toBe(0);
  });

  it('lists the scenarios the tier knows, in its order', async () => {
    const { stdout } = await execa(binary, ['--list']);
    expect(stdout.split('\n')).toEqual(HOSTILE_SCENARIO_NAMES);
  });

  it('writes nothing and says so (exit 3, a parsable line) where the device is missing', async () => {
    const run = await execa(binary, ['-d', 'no_such_device0', 'rq-num-sge-over'], { reject: false });
    expect(run.exitCode).toBe(3);
    expect(parseHostileLine(run.stdout)).toMatchObject({ kind: 'setup-failed', scenario: 'rq-num-sge-over' });
  });

  it('refuses an unknown scenario with its usage (exit 2)', async () => {
    const run = await execa(binary, ['no-such-scenario'], { reject: false });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(HOSTILE_SCENARIO_NAMES.join(' '));
  });
});
