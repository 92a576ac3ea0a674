// The rxe worker isolates native crashes: the worker is made to crash on purpose (the binding's
// crashForTest) when `ready` arrives (the worker's readiness check before each case it runs), before
// any device is needed, so this runs on any host with the addon built. A crash inside a case is
// test/adapters/remote/worker-adapter.test.ts's; the VM run of the whole suite shows it on a real
// device (post_send.opcode.invalid-for-type in expectations/rxe.yaml).
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Adapter, AdapterInfo } from '../../../adapters/adapter.js';
import { rxeAdapter } from '../../../adapters/ibverbs/adapter.js';
import { addonPath } from '../../../adapters/ibverbs/native/index.js';
import { allCases } from '../../../suites/index.js';
import { runCases } from '../../../suites/runner.js';

/** The runner needs the adapter's info only for capabilities and the layer; none are needed here. */
const INFO: AdapterInfo = {
  adapter: 'rxe',
  implementation: 'rdma-core rxe provider through libibverbs',
  version: 'test',
  layer: 'libibverbs',
  device: { name: 'rxe0' },
  capabilities: [],
  defaultProfile: 'documented',
  completionWaitMs: 3000,
};
const cases = allCases.filter((c) => c.requires.length === 0).slice(0, 2);

describe.skipIf(!existsSync(addonPath()))('rxe worker crash isolation', () => {
  let adapter: Adapter | undefined;
  afterEach(async () => adapter?.dispose());

  it.each([
    ['segv', 'SIGSEGV'],
    ['fpe', 'SIGFPE'],
    ['abort', 'SIGABRT'],
  ] as const)('a %s in the worker is that case\'s crash result, and the next case runs on a fresh worker', async (kind, signal) => {
    adapter = rxeAdapter({ crashForTest: { before: 'ready', kind } });
    const { runs } = await runCases({ adapter, info: INFO, cases, profile: 'documented', timeoutMs: 60_000 });

    const [crashed, next] = runs;
    expect(crashed).toMatchObject({ status: 'error', ran: 'crash' });
    expect(crashed?.reason).toMatch(new RegExp(`killed by ${signal} during ready`));
    // A fresh worker answered: the case ran (on a device) or was refused for a reason that is not a crash (no device here).
    expect(next?.ran).not.toBe('crash');
    expect(next?.reason ?? '').not.toMatch(/killed by/);
  });
});
