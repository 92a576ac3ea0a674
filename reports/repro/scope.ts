import type { Handle } from '../../spec/verbs/ints.js';
import { byteList, u32, u64 } from './c-syntax.js';

export type Kind = 'pd' | 'mr' | 'cq' | 'srq' | 'qp';

/**
 * The names one layer's C gives the objects a reproducer handles: libibverbs for a program, the
 * kernel verbs for a module. Everything else the scope maps is the same in both.
 */
export interface Dialect {
  types: Record<Kind, string>;
  /** The destroy statement of each kind, in the order the end of a reproducer runs them: nothing is destroyed while something else still uses it. */
  teardown: Record<Kind, (name: string) => string>;
  gidType: string;
  /** A 64-bit constant. */
  u64: (value: bigint) => string;
}

export const IBVERBS: Dialect = {
  types: { pd: 'struct ibv_pd', mr: 'struct ibv_mr', cq: 'struct ibv_cq', srq: 'struct ibv_srq', qp: 'struct ibv_qp' },
  teardown: {
    qp: (name) => `ibv_destroy_qp(${name});`,
    srq: (name) => `ibv_destroy_srq(${name});`,
    cq: (name) => `ibv_destroy_cq(${name});`,
    mr: (name) => `ibv_dereg_mr(${name});`,
    pd: (name) => `ibv_dealloc_pd(${name});`,
  },
  gidType: 'union ibv_gid',
  u64,
};

/** The resources still alive, in teardown order (each kind newest first). */
export function aliveInTeardownOrder(scope: Scope): { kind: Kind; name: string }[] {
  const order = Object.keys(scope.dialect.teardown) as Kind[];
  return order.flatMap((kind) => scope.alive.filter((r) => r.kind === kind).reverse());
}

/** An MR as recorded, and the buffer this program registers in its place. */
interface Mr {
  name: string;
  buffer: string;
  addr: bigint;
  length: number;
  lkey: number;
  rkey: number;
}

/**
 * What the program knows while it is written: the C variable of each recorded handle, and how
 * recorded addresses, keys, QP numbers, LIDs and GIDs map onto this program's own (they were
 * the implementation's; this program gets its own from the device it runs on).
 */
export class Scope {
  readonly statics: string[] = [];
  readonly alive: { kind: Kind; name: string }[] = [];
  /** The buffers the reproducer allocated for MRs, freed last (queued WRs may name them until the QPs are gone). */
  readonly buffers: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly mrs: Mr[] = [];
  private readonly qpNums = new Map<number, string>();
  private readonly lids = new Map<number, string>();
  private readonly gids = new Map<string, string>();
  /** The last queried port and GID: a loopback address vector on RoCE needs them. */
  port: string | undefined;
  gid: string | undefined;

  constructor(readonly dialect: Dialect = IBVERBS) {}

  declare(declaration: string): void {
    if (!this.statics.includes(declaration)) this.statics.push(declaration);
  }

  /** The variable for a resource created at `seq` (named by its recorded handle, or by seq when the create failed). */
  create(kind: Kind, handle: Handle | null, seq: number): string {
    const name = handle === null ? `${kind}_at_${seq}` : `${kind}_${handle}`;
    if (handle !== null) this.names.set(`${kind}:${handle}`, name);
    this.declare(`static ${this.dialect.types[kind]} *${name};`);
    this.alive.push({ kind, name });
    return name;
  }

  ref(kind: Kind, handle: Handle): string {
    return this.names.get(`${kind}:${handle}`) ?? `NULL /* ${kind} ${handle} was not created in this trace */`;
  }

  has(kind: Kind, handle: Handle): boolean {
    return this.names.has(`${kind}:${handle}`);
  }

  /** The buffer standing in for a recorded MR's memory. */
  bufferOf(handle: Handle): string {
    const name = this.names.get(`mr:${handle}`);
    return this.mrs.find((m) => m.name === name)?.buffer ?? `NULL /* mr ${handle} was not registered in this trace */`;
  }

  destroyed(kind: Kind, handle: Handle): void {
    const name = this.names.get(`${kind}:${handle}`);
    const index = this.alive.findIndex((r) => r.kind === kind && r.name === name);
    if (index >= 0) this.alive.splice(index, 1);
  }

  addMr(mr: Mr): void {
    this.mrs.push(mr);
  }

  private mrHolding(addr: bigint): Mr | undefined {
    return this.mrs.find((m) => addr >= m.addr && addr < m.addr + BigInt(m.length));
  }

  /** A recorded address inside a recorded MR becomes the same offset in this program's buffer. */
  address(addr: bigint): string {
    const mr = this.mrHolding(addr);
    if (mr === undefined) return `${this.dialect.u64(addr)} /* recorded address, in no recorded MR */`;
    return `ADDR(${mr.buffer}, 0x${(addr - mr.addr).toString(16)})`;
  }

  /** A recorded key of a recorded MR becomes that MR's key here; any other value (a bogus key a case posts on purpose) stays. */
  key(kind: 'lkey' | 'rkey', value: number, addr?: bigint): string {
    const near = addr === undefined ? undefined : this.mrHolding(addr);
    const mr = near?.[kind] === value ? near : this.mrs.find((m) => m[kind] === value);
    return mr === undefined ? `${u32(value)} /* recorded ${kind}, names no recorded MR */` : `${mr.name}->${kind}`;
  }

  addQpNum(recorded: number, qp: string): void {
    this.qpNums.set(recorded, `${qp}->qp_num`);
  }

  qpNum(recorded: number): string {
    return this.qpNums.get(recorded) ?? `${u32(recorded)} /* recorded qp_num of no QP in this trace */`;
  }

  addPort(recordedLid: number, port: string): void {
    this.lids.set(recordedLid, `${port}.lid`);
    this.port = port;
  }

  lid(recorded: number): string {
    return this.lids.get(recorded) ?? `${recorded} /* recorded LID */`;
  }

  addGid(recorded: string, gid: string): void {
    this.gids.set(recorded, gid);
    this.gid = gid;
  }

  /** A GID as an expression of the dialect's GID union. */
  gidOf(recorded: string): string {
    const known = this.gids.get(recorded);
    if (known !== undefined) return known;
    return `(${this.dialect.gidType}){ .raw = { ${byteList(recorded)} } } /* recorded GID */`;
  }
}
