// Boots the rxe VM once (about 15 s) and drives the native binding against rxe0 there.
// Run alone with: npx vitest run test/adapters/ibverbs/native-rxe.vm.test.ts
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addonPath } from '../../../adapters/ibverbs/native/index.js';
import { runInVm } from '../../../vm/run.js';
import { VM_TEST_TIMEOUT_MS, collector, vmSkipReason } from '../../vm/helpers.js';

const CHECK = fileURLToPath(new URL('./fixtures/native-rxe-check.mjs', import.meta.url));
const AVAILABILITY = fileURLToPath(new URL('./fixtures/availability-check.mjs', import.meta.url));
/** nativeAvailability() is TypeScript: the guest runs the compiled copy (npm run build, or vitest's global setup). */
const compiled = existsSync(fileURLToPath(new URL('../../../dist/adapters/ibverbs/native/index.js', import.meta.url)));
const skipReason = vmSkipReason ?? (existsSync(addonPath()) ? undefined : 'the addon is not built (npm run build:native)');
/**
 * The unprivileged checks run node and the project as nobody: every folder above the project
 * must let others in (a clone in a `mktemp -d` folder, mode 0700, does not).
 */
function othersCanEnter(path: string): boolean {
  for (let dir = path; ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}
const unprivileged = compiled && othersCanEnter(fileURLToPath(new URL('../../..', import.meta.url)));
const EINVAL = 22;
const ENOMEM = 12;
const EBUSY = 16;
const IBV_EVENT_SRQ_LIMIT_REACHED = 15;
const IBV_WC_RECV = 128;

// The check script prints BigInts as "<digits>n".
type Json = Record<string, any>;

describe.skipIf(skipReason !== undefined)(`native binding on rxe0${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let workDir = '';
  let seen: Json;
  const availability = new Map<string, Json>();

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'rvt-native-test-'));
    // One boot: the binding check, then nativeAvailability() as root, as an unprivileged user
    // without locked memory, and as that user once the device node is closed to it.
    const nobody = 'setpriv --reuid=65534 --regid=65534 --clear-groups';
    const script = [
      `"$NODE" "$CHECK"`,
      ...(compiled ? [`"$NODE" "$AVAILABILITY" root`] : []),
      ...(unprivileged
        ? [
            `${nobody} sh -c 'ulimit -l 0; exec "$NODE" "$AVAILABILITY" memlock' 2>/dev/null`,
            'chmod 600 /dev/infiniband/uverbs*',
            `${nobody} "$NODE" "$AVAILABILITY" permission`,
          ]
        : []),
    ].join(' && ');
    const stdout = collector();
    const result = await runInVm({
      command: ['sh', '-c', script],
      workDir,
      timeoutMs: VM_TEST_TIMEOUT_MS - 10_000,
      env: { NODE: process.execPath, CHECK, AVAILABILITY },
      stdout: stdout.stream,
    });
    expect(result.exitCode, `the guest script failed; console log ${result.consoleLogPath}`).toBe(0);
    const [first, ...rest] = stdout.text().trim().split('\n');
    seen = JSON.parse(first ?? '') as Json;
    for (const line of rest) {
      const entry = JSON.parse(line) as Json;
      availability.set(entry.label, entry);
    }
  }, VM_TEST_TIMEOUT_MS);
  afterAll(() => {
    if (workDir !== '') rmSync(workDir, { recursive: true, force: true });
  });

  it('opens rxe0 and reports the rxe provider and its limits', () => {
    expect(seen.devices).toEqual([expect.objectContaining({ name: 'rxe0', guid: expect.stringMatching(/^[0-9a-f]{16}$/) })]);
    expect(seen.info.info).toMatchObject({ name: 'rxe0', provider: 'rxe', phys_port_cnt: 1 });
    expect(seen.device.attr.max_srq_wr).toBeGreaterThanOrEqual(16);
    expect(seen.port.attr.state).toBe(4); // IBV_PORT_ACTIVE
    expect(seen.gid0.gid).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.mrRoundTrip).toBe('rxe');
  });

  it('creates an SRQ of at least the requested size', () => {
    expect(seen.srqCreate).toMatchObject({ ret: 0, srq: expect.any(Number) });
    expect(seen.srqQuery.attr.max_wr).toBeGreaterThanOrEqual(16);
  });

  it('posts lists in one call and reports the failing WR through bad_wr', () => {
    expect(seen.postEmpty).toEqual({ ret: 0, badWr: 'untouched' });
    expect(seen.postGood).toEqual({ ret: 0, badWr: 'untouched' });
    // A failed post carries the errno the call left: rxe returns the errno and leaves errno alone.
    expect(seen.postTooManySge).toEqual({ ret: EINVAL, errno: 0, badWr: 1 });
    expect(seen.postOverfull.ret).toBe(ENOMEM);
    // Exactly the granted capacity fits: the failing WR is the first one beyond it.
    expect(seen.queuedAfterFill).toBe(seen.srqQuery.attr.max_wr);
  });

  it('posts packed lists (postSrqRecvPacked) with the same outcomes as object lists', () => {
    expect(seen.packedEmpty).toEqual(seen.postEmpty);
    expect(seen.packedGood).toEqual(seen.postGood);
    expect(seen.packedTooManySge).toEqual(seen.postTooManySge);
    expect(seen.packedZeroSge).toEqual(seen.postZeroSge);
    expect(seen.packedDestroy).toEqual({ ret: 0, errno: 0 });
  });

  it('connects two RC QPs in loopback and delivers sends into the SRQ in FIFO order', () => {
    for (const side of ['a', 'b']) {
      for (const step of ['init', 'rtr', 'rts']) expect(seen.connect[side][step], `${side} ${step}`).toEqual({ ret: 0, errno: 0 });
    }
    expect(seen.postRecvOnSrqQp.ret).toBe(EINVAL);
    const recvs = [...seen.recvCompletions1, ...seen.recvCompletions2];
    expect(recvs.map((wc: Json) => wc.wr_id)).toEqual(seen.queuedFifo);
    expect(recvs.every((wc: Json) => wc.status === 0 && wc.opcode === IBV_WC_RECV && wc.qp_num === seen.qpCreate.b.qp_num)).toBe(true);
    expect(recvs[1].imm_data).toBe(0xdeadbeef);
    expect(seen.recvBuffer).toBe('rxe');
    expect([...seen.sendCompletions1, ...seen.sendCompletions2].map((wc: Json) => wc.wr_id)).toEqual(['1000n', '1001n', '1002n']);
  });

  it('raises SRQ_LIMIT_REACHED once the armed limit is crossed, and disarms it', () => {
    expect(seen.armLimit.outcome).toEqual({ ret: 0, errno: 0 });
    expect(seen.eventsAfterArm).toBeNull();
    expect(seen.events).toContainEqual({ event_type: IBV_EVENT_SRQ_LIMIT_REACHED, element: 'srq', handle: seen.handles.srq });
    expect(seen.srqQueryAfterEvent.attr.srq_limit).toBe(0);
  });

  it('reports errors as data, frees everything on close, and rejects stale handles', () => {
    expect(seen.destroySrqWhileAttached.ret).toBe(EBUSY);
    expect(seen.teardown).toMatchObject({ qpA: { ret: 0 }, qpB: { ret: 0 }, srq: { ret: 0 }, deallocPdWithMr: { ret: EBUSY } });
    expect(seen.close).toEqual({ ret: 0, errno: 0 });
    expect(seen.staleHandle).toMatch(/^TypeError: unknown srq handle/);
  });

  it.skipIf(!compiled)('finds the native path available to root', () => {
    expect(availability.get('root')).toMatchObject({ uid: 0, available: true, device: 'rxe0' });
  });

  it.skipIf(!unprivileged)(`tells why the native path is unavailable: memlock, permission${unprivileged ? '' : ' (skipped: the project is in a folder others cannot enter, so nobody cannot run it)'}`, () => {
    expect(availability.get('memlock')).toMatchObject({ uid: 65534, available: false, reason: 'memlock' });
    expect(availability.get('permission')).toMatchObject({ uid: 65534, available: false, reason: 'permission' });
  });
});
