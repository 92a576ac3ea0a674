import { MrAccess, type Mtu, PortState, QpAttrMask, QpState, SrqAttrMask, SrqType } from '../../spec/verbs/attrs.js';
import { AsyncEventType } from '../../spec/verbs/events.js';
import { type WcOpcode, WcStatus } from '../../spec/verbs/wc.js';
import { SendFlag, SendOpcode } from '../../spec/verbs/wr.js';

/**
 * The kernel's enum values (include/rdma/ib_verbs.h, Linux 6.1) for our names. Where the kernel
 * enum lists the values in our order from 0 (or as bits from 1), the index is the value.
 */
function byIndex<N extends string>(names: readonly N[]): ReadonlyMap<N, number> {
  return new Map(names.map((name, i) => [name, i]));
}
function byBit<N extends string>(names: readonly N[]): ReadonlyMap<N, number> {
  return new Map(names.map((name, i) => [name, 1 << i]));
}

/** A kernel enum seen through our names; a value with no name is a driver bug or an ABI mismatch. */
export class KernelEnum<N extends string> {
  private readonly names: ReadonlyMap<number, N>;
  constructor(
    readonly what: string,
    private readonly values: ReadonlyMap<N, number>,
  ) {
    this.names = new Map([...values].map(([name, value]) => [value, name]));
  }
  value(name: N): number {
    return this.values.get(name) as number;
  }
  name(value: number): N {
    const name = this.names.get(value);
    if (name === undefined) throw new Error(`${this.what} has no value ${value}`);
    return name;
  }
  flags(names: readonly N[]): number {
    return names.reduce((all, name) => all | this.value(name), 0);
  }
  namesOf(flags: number): N[] {
    return [...this.values].filter(([, bit]) => (flags & bit) !== 0).map(([name]) => name);
  }
}

export const qpState = new KernelEnum('enum ib_qp_state', byIndex(QpState.options));
export const portState = new KernelEnum('enum ib_port_state', byIndex(PortState.options));
export const qpAttrMask = new KernelEnum('enum ib_qp_attr_mask', byBit(QpAttrMask.options));
export const srqAttrMask = new KernelEnum('enum ib_srq_attr_mask', byBit(SrqAttrMask.options));
export const srqType = new KernelEnum('enum ib_srq_type', byIndex(SrqType.options));
export const access = new KernelEnum('enum ib_access_flags', byBit(MrAccess.options));
export const sendOpcode = new KernelEnum('enum ib_wr_opcode', byIndex(SendOpcode.options));
export const sendFlag = new KernelEnum('enum ib_send_flags', byBit(SendFlag.options));
export const wcStatus = new KernelEnum('enum ib_wc_status', byIndex(WcStatus.options));
export const eventType = new KernelEnum('enum ib_event_type', byIndex(AsyncEventType.options));
export const wcOpcode = new KernelEnum<WcOpcode>(
  'enum ib_wc_opcode',
  new Map([
    ['SEND', 0],
    ['RDMA_WRITE', 1],
    ['RDMA_READ', 2],
    ['COMP_SWAP', 3],
    ['FETCH_ADD', 4],
    ['BIND_MW', 5],
    ['RECV', 1 << 7],
    ['RECV_RDMA_WITH_IMM', (1 << 7) + 1],
  ]),
);
export const qpType = new KernelEnum<'RC' | 'UD'>('enum ib_qp_type', new Map([['RC', 2], ['UD', 4]]));
export const linkLayer = new KernelEnum<'UNSPECIFIED' | 'INFINIBAND' | 'ETHERNET'>(
  'IB_LINK_LAYER_*',
  new Map([['UNSPECIFIED', 0], ['INFINIBAND', 1], ['ETHERNET', 2]]),
);

/** enum ib_mtu: IB_MTU_256 = 1 ... IB_MTU_4096 = 5. */
const MTUS: readonly Mtu[] = [256, 512, 1024, 2048, 4096];
export const mtuToKernel = (mtu: Mtu): number => MTUS.indexOf(mtu) + 1;
export function mtuFromKernel(value: number): Mtu {
  const mtu = MTUS[value - 1];
  if (mtu === undefined) throw new Error(`enum ib_mtu has no value ${value}`);
  return mtu;
}

/** IB_WC_WITH_IMM in enum ib_wc_flags. */
export const IB_WC_WITH_IMM = 1 << 1;
/** IB_DEVICE_SRQ_RESIZE in enum ib_device_cap_flags. */
export const IB_DEVICE_SRQ_RESIZE = 1n << 13n;
