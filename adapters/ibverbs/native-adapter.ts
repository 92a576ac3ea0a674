import { execFileSync } from 'node:child_process';
import { release } from 'node:os';
import type { Adapter, AdapterInfo, Capability } from '../adapter.js';
import type { VerbsBinding } from './native/index.js';
import { openNativeSession } from './native-session.js';

/**
 * Software devices have no bus device, so the addon finds no kernel driver for them; their
 * user-space provider names the kernel module that implements them.
 */
const SOFTWARE_DRIVERS: Record<string, string> = { rxe: 'rdma_rxe', siw: 'siw' };

/** The rdma-core release of the installed libibverbs (Debian's package version), if dpkg knows it. */
function rdmaCoreVersion(): string | undefined {
  try {
    // node:child_process, not execa: this runs in the worker, and under the VM's emulated CPU
    // execa's 100-odd modules cost the worker seconds of start-up.
    const stdout = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'libibverbs1'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** What the device can do, read from it; what the verbs layer always offers is listed as such. */
function capabilitiesOf(binding: VerbsBinding, ctx: number, transport: 'ib' | 'iwarp'): Capability[] {
  const { IBV_DEVICE_SRQ_RESIZE, IBV_PORT_ACTIVE } = binding.constants;
  const device = binding.queryDevice(ctx).attr;
  const port = binding.queryPort(ctx, 1).attr;
  if (device === null) return [];
  const caps: Capability[] = ['async_events', 'mr_data'];
  // Arming the SRQ limit (ibv_modify_srq with IBV_SRQ_LIMIT) is part of the SRQ verbs; no flag announces it.
  if (device.max_srq > 0) caps.push('srq', 'srq_limit_event');
  if ((device.device_cap_flags & IBV_DEVICE_SRQ_RESIZE) !== 0) caps.push('srq_resize');
  // Loopback connects two QPs through port 1 with modify_qp alone, so it needs that port up and an
  // IB or RoCE device: an iWARP QP (siw) is connected only by its CM, and iWARP has no UD (as the
  // kernel adapter says of the same device).
  const loopback = port?.state === IBV_PORT_ACTIVE && transport === 'ib';
  if (loopback) caps.push('rc_loopback', 'ud');
  // The addon's threaded engine (src/concurrent.cc) consumes through loopback RC pairs on an SRQ.
  if (device.max_srq > 0 && loopback) caps.push('concurrent');
  return caps;
}

/** The device's transport as libibverbs reads it (struct ibv_device's transport_type). */
function transportOf(binding: VerbsBinding, device: string): 'ib' | 'iwarp' {
  const entry = binding.deviceList().find((d) => d.name === device);
  return entry?.transportType === binding.constants.IBV_TRANSPORT_IWARP ? 'iwarp' : 'ib';
}

/** The native binding on one device, in process: what the worker serves over its pipe. */
export function nativeAdapter(binding: VerbsBinding, device: string): Adapter {
  return {
    info: async (): Promise<AdapterInfo> => {
      const ctx = binding.open(device);
      try {
        const info = binding.info(ctx).info;
        const provider = info?.provider ?? undefined;
        const rdmaCore = rdmaCoreVersion();
        const driver = info?.driver ?? (provider === undefined ? undefined : SOFTWARE_DRIVERS[provider]);
        const transport = transportOf(binding, device);
        return {
          adapter: 'ibverbs',
          implementation: `rdma-core ${provider ?? 'unknown'} provider through libibverbs`,
          version: rdmaCore ?? 'unknown',
          layer: 'libibverbs',
          device: {
            name: device,
            ...(driver === undefined ? {} : { driver }),
            ...(provider === undefined ? {} : { provider }),
            ...(info?.fw_ver ? { fw_ver: info.fw_ver } : {}),
            kernel: release(),
            ...(rdmaCore === undefined ? {} : { rdma_core: rdmaCore }),
            transport,
          },
          capabilities: capabilitiesOf(binding, ctx, transport),
          defaultProfile: 'documented',
          // Completions and events go through the kernel's rxe tasklets; under QEMU's TCG they can take seconds.
          completionWaitMs: 3000,
          // What does come arrives within a few hundred ms on these hosts (the positive waits'
          // case durations in the VM): a second of silence is taken as nothing coming.
          quietMs: 1000,
        };
      } finally {
        binding.close(ctx);
      }
    },
    open: async () => openNativeSession(binding, device),
    dispose: async () => undefined,
  };
}
