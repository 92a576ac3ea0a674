import { existsSync } from 'node:fs';
import { release } from 'node:os';
import type { Adapter, AdapterInfo, Capability, Session } from '../adapter.js';
import { Unavailable } from '../remote/serve-worker.js';
import { DeviceAttrResp, Op, PortAttrResp, QueryPortReq } from './abi.js';
import { CONTROL_DEVICE, KernelControl, KernelRefusal } from './control.js';
import * as names from './names.js';
import { rdmavtModule } from './rdmavt-module.js';
import { relayHello } from './relay-channel.js';
import { openKernelSession } from './session.js';
import { fromCString } from './struct.js';

/** enum rdma_node_type: an iWARP RNIC. */
const RDMA_NODE_RNIC = 4;


/** Opens a control session, turning "cannot" into the reasons the parent has remedies for. */
export function openControl(device: string): KernelControl {
  // In the VM, through its relay: the guest's /dev/rvtc, whose absence its open reports.
  if (relayHello() === undefined && !existsSync(CONTROL_DEVICE)) {
    throw new Unavailable('module-not-loaded', `${CONTROL_DEVICE} does not exist: the rvtc module is not loaded`);
  }
  try {
    return new KernelControl(device);
  } catch (error) {
    if (error instanceof KernelRefusal && error.status === -19) throw new Unavailable('no-such-device', error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Unavailable('module-not-loaded', `${CONTROL_DEVICE} does not exist in the VM: the rvtc module is not loaded`);
    if ((error as NodeJS.ErrnoException).code === 'EACCES') throw new Unavailable('permission', `cannot open ${CONTROL_DEVICE}: permission denied`);
    throw error;
  }
}

/** The session that holds the device's published DMA MR (anchorDmaMr), open as long as this process. */
let anchor: Session | undefined;

/**
 * Through the VM's relay, sessions overlap: the relay closes one on a thread of its own while the
 * next one runs. rdmavt publishes one DMA MR per device, the first registered (rvt_alloc_lkey),
 * and resolves every lkey 0 and rkey 0 of every kernel PD to it (rvt_lkey_ok, rvt_rkey_ok), so a
 * closing session's dereg of that MR would wait on the next session's WQEs (rvt_check_refs, 5 s)
 * and leave the device without one: what a run saw would depend on the run before it. The
 * worker registers one first, in a session it keeps open; every run's own MRs are then
 * unpublished and theirs alone.
 */
async function anchorDmaMr(device: string): Promise<void> {
  if (anchor !== undefined || relayHello() === undefined) return;
  const session = openKernelSession(openControl(device));
  const { pd, rawReturn } = await session.allocPd({});
  const mr = pd === null ? undefined : await session.regMr({ pd, length: 4096, access: ['LOCAL_WRITE'] });
  if (pd === null || mr === undefined || mr.rawReturn !== 0) throw new Error(`the relay's DMA MR could not be registered (allocPd ${rawReturn}, regMr ${mr?.rawReturn})`);
  anchor = session;
}

/**
 * The kernel verbs of one device through the rvtc module, in process: what the kernel worker
 * serves to kernelAdapter. Capabilities are read from the device as the libibverbs adapter does.
 */
export function kernelDeviceAdapter(device: string): Adapter {
  return {
    info: async (): Promise<AdapterInfo> => {
      const control = openControl(device);
      try {
        const attr = DeviceAttrResp.read(control.request(Op.QUERY_DEVICE), 0);
        const port = PortAttrResp.read(control.request(Op.QUERY_PORT, QueryPortReq.encode({ port: 1 })), 0);
        const driver = fromCString(attr.driver);
        // Through the relay, the kernel and its modules are the guest's.
        const guest = relayHello();
        const rdmavt = driver !== 'rvt_sim' ? undefined : (guest?.rdmavt ?? rdmavtModule());
        const kernel = guest?.release ?? release();
        const caps: Capability[] = ['async_events', 'mr_data', 'post_contexts'];
        if (attr.max_srq > 0) caps.push('srq', 'srq_limit_event');
        if ((attr.device_cap_flags & names.IB_DEVICE_SRQ_RESIZE) !== 0n) caps.push('srq_resize');
        // Loopback connects two QPs through port 1 with modify_qp alone, so it needs that port up
        // and an IB or RoCE device: iWARP (an RNIC, e.g. siw) connects only through the CM and has no UD.
        const iwarp = attr.node_type === RDMA_NODE_RNIC;
        // rvtc's engine (RUN_CONCURRENT) consumes through loopback RC pairs on an SRQ.
        if (!iwarp && port.ret === 0 && names.portState.name(port.state) === 'ACTIVE') caps.push('rc_loopback', 'ud', ...(caps.includes('srq') ? (['concurrent'] as const) : []));
        return {
          adapter: 'kernel',
          implementation:
            rdmavt === undefined
              ? `${driver === '' ? 'unknown driver' : driver}'s kernel verbs through rvtc`
              : `rdmavt's kernel verbs (${rdmavt}) on the simulated device rvt_sim, through rvtc`,
          version: kernel,
          layer: 'kernel',
          device: {
            name: device,
            ...(driver === '' ? {} : { driver: rdmavt === undefined ? driver : 'rdmavt' }),
            ...(fromCString(attr.fw_ver) === '' ? {} : { fw_ver: fromCString(attr.fw_ver) }),
            kernel,
            transport: iwarp ? 'iwarp' : 'ib',
          },
          capabilities: caps,
          // The documented contract binds every driver; rdmavt's exact behaviour binds rdmavt itself.
          defaultProfile: rdmavt === undefined ? 'documented' : 'rdmavt',
          // Software devices complete through tasklets and work queues; under TCG that can take seconds.
          completionWaitMs: 3000,
          // What does come arrives within a few hundred ms on these hosts: a second of silence is
          // taken as nothing coming.
          quietMs: 1000,
        };
      } finally {
        control.close();
      }
    },
    open: async () => {
      await anchorDmaMr(device);
      return openKernelSession(openControl(device));
    },
    dispose: async () => undefined,
  };
}
