import type { CallName } from '../../../adapters/calls.js';
import type { QpAttr } from '../../../spec/verbs/attrs.js';
import type { AsyncEvent } from '../../../spec/verbs/events.js';
import type { WorkCompletion } from '../../../spec/verbs/wc.js';
import type { RecvWr, SendWr } from '../../../spec/verbs/wr.js';
import { byteList, cComment, cString, flags, u32 } from '../c-syntax.js';
import { first } from '../emit-resources.js';
import { type Emitter, stepTitle } from '../expect.js';
import type { Recorded } from '../recorded.js';
import type { Kind, Scope } from '../scope.js';
import { prInfo, wrapCall } from './c-kernel.js';
import { MAX_EVENTS } from './prelude.js';
import { runConcurrentStep } from '../concurrent/workload.js';

/**
 * The kernel module's C for each recorded call: the kernel verb rvtc called for it, with the
 * recorded arguments (negative and out-of-range values included: they are what a case tests),
 * then the recorded and the replayed result side by side. Statements only: the module keeps its
 * arrays static (the init path runs once), so no step puts kilobytes on the kernel stack.
 */

/**
 * A recorded return value as the kernel verbs give it: 0 or a negative errno. A kernel-layer
 * recording has exactly that; another layer's (a recording made elsewhere, replayed in the
 * kernel) gives the errno positive, so the magnitude is what counts.
 */
const kernelReturn = (result: { rawReturn: number }): number => (result.rawReturn === 0 ? 0 : -Math.abs(result.rawReturn));

/** The step's first line in the kernel log: which recorded call is next (an oops in it leaves this as the last line). */
const announce = (group: readonly Recorded<CallName>[], what: string) => [prInfo(stepTitle(group, what), 1)];

const checkRet = (call: Recorded<CallName>, actual: string): string[] => {
  const result = call.result as { rawReturn: number } | undefined;
  if (result === undefined) return [`note_ret(${call.seq}, ${cString(call.call)}, ${actual});`];
  return [wrapCall('check_ret', [String(call.seq), cString(call.call), String(kernelReturn(result)), actual], ';', 1)];
};

/** A create: the call into a local pointer, the comparison, and the variable the later steps use (NULL when it failed). */
function created(call: Recorded<'allocPd' | 'regMr' | 'createCq' | 'createSrq' | 'createQp'>, kind: Kind, handle: number | null | undefined, scope: Scope, expr: string) {
  const name = scope.create(kind, handle ?? null, call.seq);
  const recorded = call.result === undefined ? 0 : kernelReturn(call.result);
  return {
    name,
    lines: [
      `${name} = ${expr};`,
      `ret = PTR_ERR_OR_ZERO(${name});`,
      'if (ret)',
      `\t${name} = NULL;`,
      `if (!check_created(${call.seq}, ${cString(call.call)}, ${recorded}, ret))`,
      '\tgoto out;',
    ],
  };
}

/** A destroy: the _user form, which returns what failed; a destroyed object's variable is cleared so the end does not destroy it twice. */
const destroyed = (kind: Kind, verb: (name: string) => string) => (group: readonly Recorded<'deallocPd' | 'deregMr' | 'destroyCq' | 'destroySrq' | 'destroyQp'>[], scope: Scope) => {
  const call = first(group);
  const handle = (call.args as Record<Kind, number>)[kind];
  const name = scope.ref(kind, handle);
  if (!scope.has(kind, handle)) return [...announce(group, `destroy ${kind} ${handle}, which this trace did not create: not replayed`)];
  return [...announce(group, `destroy ${kind} ${handle}`), `ret = ${name} ? ${verb(name)} : -EINVAL;`, ...checkRet(call, 'ret'), 'if (!ret)', `\t${name} = NULL;`];
};

/** The sges of a WR: as many as num_sge says when that is more than the list holds (zeroed, as rvtc pads them), at least one. */
function sgeLines(seq: number, wr: RecvWr | SendWr, i: number, scope: Scope): { name: string; lines: string[] } {
  const name = `sge_${seq}_${i}`;
  scope.declare(`static struct ib_sge ${name}[${Math.max(wr.sg_list.length, wr.num_sge, 1)}];`);
  const lines = wr.sg_list.flatMap((s, k) => [
    `${name}[${k}].addr = ${scope.address(s.addr)};`,
    `${name}[${k}].length = ${s.length};`,
    `${name}[${k}].lkey = ${scope.key('lkey', s.lkey, s.addr)};`,
  ]);
  return { name, lines };
}

/** The kernel verb of each post, and the job kind that makes it from an interrupt (the prelude's run_post). */
const POSTS = {
  postSrqRecv: { verb: 'ib_post_srq_recv', kind: 'POST_SRQ_RECV', target: 'srq', list: 'recv' },
  postRecv: { verb: 'ib_post_recv', kind: 'POST_RECV', target: 'qp', list: 'recv' },
  postSend: { verb: 'ib_post_send', kind: 'POST_SEND', target: 'qp', list: 'send' },
} as const;

/**
 * A post, in the context it was recorded in, as rvtc made it: process context, interrupts off, a
 * softirq (a tasklet) or a hard interrupt (an hrtimer). The list is the recorded one: num_sge as
 * recorded, negative included.
 */
function post(call: Recorded<'postSrqRecv' | 'postRecv' | 'postSend'>, target: string, list: { lines: string[]; head: string; stride: string }) {
  const how = POSTS[call.call];
  const count = call.args.wrs.length;
  const head = count === 0 ? 'NULL' : list.head;
  const bad = `bad_${how.list}`;
  const context = call.args.context ?? 'process';
  const invoke = `ret = ${how.verb}(${target}, ${head}, &${bad});`;
  const badWr = call.result === undefined ? 'NULL' : cString(String(call.result.badWr));
  const made =
    context === 'irqs-off'
      ? ['local_irq_save(flags);', invoke, 'local_irq_restore(flags);']
      : context === 'softirq' || context === 'hardirq'
        ? [
            `job.kind = ${how.kind};`,
            `job.${how.target} = ${target};`,
            `job.${how.list} = ${head};`,
            `job.${bad} = &untouched_${how.list};`,
            `post_in_${context}(&job);`,
            'ret = job.ret;',
            `${bad} = job.${bad};`,
          ]
        : [`${bad} = &untouched_${how.list};`, invoke];
  return [
    ...announce([call], `${count} WR(s)${count === 0 ? '' : `, num_sge ${[...new Set(call.args.wrs.map((w) => w.num_sge))].join(' or ')}`}${context === 'process' ? '' : `, from ${context === 'irqs-off' ? 'a section with interrupts off' : `a ${context === 'softirq' ? 'softirq' : 'hard interrupt'}`}`}`),
    ...list.lines,
    ...(context === 'irqs-off' ? [`${bad} = &untouched_${how.list};`] : []),
    ...made,
    ...checkRet(call, 'ret'),
    ...(call.result === undefined
      ? []
      : [wrapCall('check_str', [String(call.seq), cString(call.call), '"bad_wr"', badWr, `bad_wr_name(${bad}, &untouched_${how.list}, ${head}, ${list.stride}, ${count})`], ';', 1)]),
  ];
}

function recvList(call: Recorded<'postSrqRecv' | 'postRecv'>, scope: Scope) {
  const wrs = `wr_${call.seq}`;
  const count = call.args.wrs.length;
  if (count > 0) scope.declare(`static struct ib_recv_wr ${wrs}[${count}];`);
  const lines = call.args.wrs.flatMap((wr, i) => {
    const sge = sgeLines(call.seq, wr, i, scope);
    return [
      ...sge.lines,
      `${wrs}[${i}].wr_id = ${scope.dialect.u64(wr.wr_id)};`,
      `${wrs}[${i}].sg_list = ${sge.name};`,
      `${wrs}[${i}].num_sge = ${wr.num_sge};`,
      ...(i + 1 < count ? [`${wrs}[${i}].next = &${wrs}[${i + 1}];`] : []),
    ];
  });
  return { lines, head: wrs, stride: 'sizeof(struct ib_recv_wr)' };
}

const ATOMIC = new Set(['ATOMIC_CMP_AND_SWP', 'ATOMIC_FETCH_AND_ADD']);

function sendList(call: Recorded<'postSend'>, scope: Scope) {
  const wrs = `wr_${call.seq}`;
  const count = call.args.wrs.length;
  if (count > 0) scope.declare(`static union any_send_wr ${wrs}[${count}];`);
  const lines = call.args.wrs.flatMap((wr, i) => {
    const sge = sgeLines(call.seq, wr, i, scope);
    const w = `${wrs}[${i}].wr`;
    // The remote address goes where the driver reads it for the opcode: ib_rdma_wr, or ib_atomic_wr.
    const remote = ATOMIC.has(wr.opcode) ? 'atomic' : 'rdma';
    return [
      ...sge.lines,
      `${w}.wr_id = ${scope.dialect.u64(wr.wr_id)};`,
      `${w}.opcode = IB_WR_${wr.opcode};`,
      `${w}.send_flags = ${flags('IB_SEND_', wr.send_flags)};`,
      ...(wr.imm_data === undefined ? [] : [`${w}.ex.imm_data = cpu_to_be32(${u32(wr.imm_data)});`]),
      `${w}.sg_list = ${sge.name};`,
      `${w}.num_sge = ${wr.num_sge};`,
      ...(i + 1 < count ? [`${w}.next = &${wrs}[${i + 1}].wr;`] : []),
      ...(wr.rdma === undefined
        ? []
        : [
            `${wrs}[${i}].${remote}.remote_addr = ${scope.address(wr.rdma.remote_addr)};`,
            `${wrs}[${i}].${remote}.rkey = ${scope.key('rkey', wr.rdma.rkey, wr.rdma.remote_addr)};`,
          ]),
    ];
  });
  return { lines, head: `&${wrs}[0].wr`, stride: 'sizeof(union any_send_wr)' };
}

function wcCheck(seq: number, i: number, wc: WorkCompletion, scope: Scope, wcs: string): string[] {
  const opcode = wc.opcode === undefined ? '-1' : `IB_WC_${wc.opcode}`;
  const byteLen = wc.byte_len === undefined ? '-1' : String(wc.byte_len);
  return [`if (n > ${i})`, `\t${wrapCall('check_wc', [String(seq), String(i), `&${wcs}[${i}]`, scope.dialect.u64(wc.wr_id), `IB_WC_${wc.status}`, opcode, byteLen, scope.qpNum(wc.qp_num)], ';', 2)}`];
}

function eventChecks(seq: number, i: number, event: AsyncEvent, scope: Scope, evs: string): string[] {
  const element = event.element;
  const where =
    element.kind === 'qp'
      ? { test: `${evs}[${i}].element.qp == ${scope.ref('qp', element.qp)}`, name: `qp ${element.qp}` }
      : element.kind === 'srq'
        ? { test: `${evs}[${i}].element.srq == ${scope.ref('srq', element.srq)}`, name: `srq ${element.srq}` }
        : element.kind === 'cq'
          ? { test: `${evs}[${i}].element.cq == ${scope.ref('cq', element.cq)}`, name: `cq ${element.cq}` }
          : element.kind === 'port'
            ? { test: `${evs}[${i}].element.port_num == ${element.port_num}`, name: `port ${element.port_num}` }
            : undefined;
  return [
    `if (n > ${i}) {`,
    `\t${wrapCall('check_str', [String(seq), '"getAsyncEvents"', `"event[${i}]"`, `ib_event_msg(IB_EVENT_${event.event_type})`, `ib_event_msg(${evs}[${i}].event)`], ';', 2)}`,
    ...(where === undefined ? [] : [`\t${wrapCall('check_str', [String(seq), '"getAsyncEvents"', `"event[${i}] of"`, cString(where.name), `${where.test} ? ${cString(where.name)} : "another one"`], ';', 2)}`]),
    '}',
  ];
}

function ahLines(ah: NonNullable<QpAttr['ah_attr']>, scope: Scope, seq: number): string[] {
  const grh = ah.grh;
  const dgid = grh === undefined ? 'NULL' : `&${scope.gidOf(grh.dgid).replace(/ \/\*.*\*\/$/, '')}`;
  const ownGid = scope.gid === undefined ? 'NULL' : `&${scope.gid}`;
  const args = [String(seq), '&qp_attr.ah_attr', String(ah.port_num), scope.lid(ah.dlid), String(ah.sl), dgid];
  const rest = grh === undefined ? ['0', '0', '0', '0'] : [String(grh.sgid_index), String(grh.hop_limit), String(grh.flow_label), String(grh.traffic_class)];
  return [wrapCall('set_av', [...args, ...rest, ownGid], ';', 1)];
}

function qpAttrLines(attr: QpAttr, scope: Scope, seq: number): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(attr) as [keyof QpAttr, QpAttr[keyof QpAttr]][]) {
    if (value === undefined) continue;
    if (key === 'qp_state' || key === 'cur_qp_state') lines.push(`qp_attr.${key} = IB_QPS_${String(value)};`);
    else if (key === 'qp_access_flags') lines.push(`qp_attr.qp_access_flags = ${flags('IB_ACCESS_', value as string[])};`);
    else if (key === 'path_mtu') lines.push(`qp_attr.path_mtu = IB_MTU_${String(value)};`);
    else if (key === 'dest_qp_num') lines.push(`qp_attr.dest_qp_num = ${scope.qpNum(value as number)};`);
    else if (key === 'ah_attr') lines.push(...ahLines(value as NonNullable<QpAttr['ah_attr']>, scope, seq));
    else if (key === 'cap') lines.push(...capLines('qp_attr.cap', value as NonNullable<QpAttr['cap']>));
    else lines.push(`qp_attr.${key} = ${u32(value as number)};`);
  }
  return lines;
}

const capLines = (to: string, cap: NonNullable<QpAttr['cap']>) => (Object.keys(cap) as (keyof typeof cap)[]).map((f) => `${to}.${f} = ${cap[f]};`);

/** Fields of ib_qp_attr that a query compares. */
const QUERIED = ['dest_qp_num', 'rq_psn', 'sq_psn', 'timeout', 'retry_cnt', 'rnr_retry', 'min_rnr_timer', 'max_rd_atomic', 'max_dest_rd_atomic'] as const;

/** One emitter per verbs call: a call added to adapters/calls.ts without one is a compile error here. */
export const KERNEL_EMITTERS: { [N in CallName]: Emitter<N> } = {
  queryDevice: (group) => {
    const call = first(group);
    const attrs = { max_qp_wr: 'max_qp_wr', max_sge: 'max_send_sge', max_srq_wr: 'max_srq_wr', max_srq_sge: 'max_srq_sge' } as const;
    return [
      ...announce(group, 'the device attributes (the case derived some values from them)'),
      ...(call.result === undefined
        ? []
        : (Object.keys(attrs) as (keyof typeof attrs)[]).map((f) => wrapCall('note_num', [String(call.seq), '"queryDevice"', `"${f}"`, String(call.result?.[f] ?? 0), `dev->attrs.${attrs[f]}`], ';', 1))),
    ];
  },
  queryPort: (group, scope) => {
    const call = first(group);
    const port = `port_${call.seq}`;
    scope.declare(`static struct ib_port_attr ${port};`);
    if (call.result !== undefined) scope.addPort(call.result.lid, port);
    return [
      ...announce(group, `port ${call.args.port_num}: its LID replaces the recorded one`),
      `ret = ib_query_port(dev, ${call.args.port_num}, &${port});`,
      `check_ret(${call.seq}, "queryPort", 0, ret);`,
    ];
  },
  queryGid: (group, scope) => {
    const call = first(group);
    const gid = `gid_${call.seq}`;
    scope.declare(`static union ib_gid ${gid};`);
    if (call.result !== undefined) scope.addGid(call.result.gid, gid);
    return [
      ...announce(group, `GID ${call.args.index} of port ${call.args.port_num}: it replaces the recorded one`),
      `ret = rdma_query_gid(dev, ${call.args.port_num}, ${call.args.index}, &${gid});`,
      `check_ret(${call.seq}, "queryGid", 0, ret);`,
    ];
  },
  allocPd: (group, scope) => {
    const call = first(group);
    return [...announce(group, 'a protection domain'), ...created(call, 'pd', call.result?.pd, scope, 'ib_alloc_pd(dev, 0)').lines];
  },
  deallocPd: destroyed('pd', (name) => `dealloc_pd(${name})`),
  regMr: (group, scope) => {
    const call = first(group);
    const buffer = `buf_${call.seq}`;
    scope.declare(`static void *${buffer};`);
    scope.buffers.push(buffer);
    const { name, lines } = created(call, 'mr', call.result?.mr, scope, `reg_dma_mr(${scope.ref('pd', call.args.pd)}, ${flags('IB_ACCESS_', call.args.access)})`);
    if (call.result !== undefined && call.result.mr !== null) {
      scope.addMr({ name, buffer, addr: call.result.addr, length: call.args.length, lkey: call.result.lkey, rkey: call.result.rkey });
    }
    return [
      ...announce(group, `a DMA MR over ${call.args.length} bytes of this module's own, standing in for the recorded MR at 0x${call.result?.addr.toString(16) ?? '?'}`),
      `${buffer} = kvzalloc(${call.args.length} + MR_SLACK, GFP_KERNEL);`,
      `if (!${buffer})`,
      '\tgoto out;',
      ...lines,
    ];
  },
  writeMr: (group, scope) => {
    const call = first(group);
    const bytes = call.args.data.length / 2;
    if (bytes === 0) return [];
    const data = `data_${call.seq}`;
    scope.declare(`static const u8 ${data}[] = { ${byteList(call.args.data)} };`);
    return [
      `/* ${cComment(stepTitle(group, `${bytes} bytes into the buffer at offset ${call.args.offset}`))} */`,
      `if (${scope.ref('mr', call.args.mr)})`,
      `\tmemcpy((u8 *)${scope.bufferOf(call.args.mr)} + ${call.args.offset}, ${data}, sizeof(${data}));`,
    ];
  },
  readMr: (group, scope) => {
    const call = first(group);
    if (call.result === undefined || call.args.length === 0) return [];
    const data = `expected_${call.seq}`;
    scope.declare(`static const u8 ${data}[] = { ${byteList(call.result.data)} };`);
    return [
      `/* ${cComment(stepTitle(group, `${call.args.length} bytes at offset ${call.args.offset}: what arrived`))} */`,
      `if (${scope.ref('mr', call.args.mr)})`,
      `\t${wrapCall('check_bytes', [String(call.seq), data, `(const u8 *)${scope.bufferOf(call.args.mr)} + ${call.args.offset}`, `sizeof(${data})`], ';', 2)}`,
    ];
  },
  deregMr: destroyed('mr', (name) => `ib_dereg_mr(${name})`),
  createCq: (group, scope) => {
    const call = first(group);
    const { name, lines } = created(call, 'cq', call.result?.cq, scope, 'ib_create_cq(dev, on_completion, on_event, NULL, &cq_attr)');
    return [
      ...announce(group, `a CQ of ${call.args.cqe} entries`),
      `cq_attr.cqe = ${call.args.cqe};`,
      ...lines,
      ...(call.result === undefined ? [] : [`if (${name})`, `\tnote_num(${call.seq}, "createCq", "cqe", ${call.result.cqe}, ${name}->cqe);`]),
    ];
  },
  pollCq: (group, scope) => {
    const call = first(group);
    const want = call.args.max;
    const got = group.flatMap((c) => c.result?.completions ?? []);
    const wcs = `wc_${call.seq}`;
    scope.declare(`static struct ib_wc ${wcs}[${want}];`);
    return [
      ...announce(group, `poll until ${want} completion(s) came (the recording got ${got.length})`),
      `n = poll_until(${scope.ref('cq', call.args.cq)}, ${wcs}, ${want});`,
      `check_num(${call.seq}, "pollCq", "completions", ${got.length}, n);`,
      ...got.flatMap((wc, i) => wcCheck(call.seq, i, wc, scope, wcs)),
    ];
  },
  destroyCq: destroyed('cq', (name) => `ib_destroy_cq_user(${name}, NULL)`),
  createSrq: (group, scope) => {
    const call = first(group);
    const { max_wr, max_sge, srq_limit } = call.args.attr;
    const { name, lines } = created(call, 'srq', call.result?.srq, scope, `ib_create_srq(${scope.ref('pd', call.args.pd)}, &srq_init)`);
    const granted = call.result?.attr;
    return [
      ...announce(group, `an SRQ asking for max_wr ${max_wr}, max_sge ${max_sge}`),
      'memset(&srq_init, 0, sizeof(srq_init));',
      'srq_init.event_handler = on_event;',
      `srq_init.srq_type = IB_SRQT_${call.args.srq_type ?? 'BASIC'};`,
      ...(call.args.cq === undefined ? [] : [`srq_init.ext.cq = ${scope.ref('cq', call.args.cq)};`]),
      ...(call.args.max_num_tags === undefined ? [] : [`srq_init.ext.tag_matching.max_num_tags = ${call.args.max_num_tags};`]),
      `srq_init.attr.max_wr = ${max_wr};`,
      `srq_init.attr.max_sge = ${max_sge};`,
      `srq_init.attr.srq_limit = ${srq_limit};`,
      ...lines,
      // Adapters report what was granted differently (from the create, or a query after it): printed, not compared.
      ...(granted
        ? [
            `if (${name}) {`,
            `\tnote_num(${call.seq}, "createSrq", "granted max_wr", ${granted.max_wr}, srq_init.attr.max_wr);`,
            `\tnote_num(${call.seq}, "createSrq", "granted max_sge", ${granted.max_sge}, srq_init.attr.max_sge);`,
            '}',
          ]
        : []),
    ];
  },
  modifySrq: (group, scope) => {
    const call = first(group);
    const fields = Object.entries(call.args.attr).filter(([, v]) => v !== undefined);
    const srq = scope.ref('srq', call.args.srq);
    return [
      ...announce(group, `mask ${call.args.mask.join(' | ') || 'none'}`),
      'memset(&srq_attr, 0, sizeof(srq_attr));',
      ...fields.map(([k, v]) => `srq_attr.${k} = ${String(v)};`),
      `ret = ${srq} ? ib_modify_srq(${srq}, &srq_attr, ${flags('IB_SRQ_', call.args.mask)}) : -EINVAL;`,
      ...checkRet(call, 'ret'),
    ];
  },
  querySrq: (group, scope) => {
    const call = first(group);
    const attr = call.result?.attr;
    const srq = scope.ref('srq', call.args.srq);
    return [
      ...announce(group, 'the SRQ attributes'),
      'memset(&srq_attr, 0, sizeof(srq_attr));',
      `ret = ${srq} ? ib_query_srq(${srq}, &srq_attr) : -EINVAL;`,
      ...checkRet(call, 'ret'),
      ...(attr ? (['max_wr', 'max_sge', 'srq_limit'] as const).map((f) => `check_num(${call.seq}, "querySrq", "${f}", ${attr[f]}, srq_attr.${f});`) : []),
    ];
  },
  destroySrq: destroyed('srq', (name) => `ib_destroy_srq_user(${name}, NULL)`),
  postSrqRecv: (group, scope) => {
    const call = first(group);
    const srq = scope.ref('srq', call.args.srq);
    return post(call, srq, recvList(call, scope));
  },
  createQp: (group, scope) => {
    const call = first(group);
    const { init } = call.args;
    const { name, lines } = created(call, 'qp', call.result?.qp, scope, `ib_create_qp(${scope.ref('pd', call.args.pd)}, &qp_init)`);
    if (call.result?.qp_num !== null && call.result?.qp_num !== undefined) scope.addQpNum(call.result.qp_num, name);
    const granted = call.result?.cap;
    return [
      ...announce(group, `an ${init.qp_type} QP${init.srq === undefined ? '' : ' on the SRQ'}`),
      'memset(&qp_init, 0, sizeof(qp_init));',
      'qp_init.event_handler = on_event;',
      `qp_init.send_cq = ${scope.ref('cq', init.send_cq)};`,
      `qp_init.recv_cq = ${scope.ref('cq', init.recv_cq)};`,
      ...(init.srq === undefined ? [] : [`qp_init.srq = ${scope.ref('srq', init.srq)};`]),
      ...capLines('qp_init.cap', init.cap),
      `qp_init.qp_type = IB_QPT_${init.qp_type};`,
      `qp_init.sq_sig_type = ${init.sq_sig_all ? 'IB_SIGNAL_ALL_WR' : 'IB_SIGNAL_REQ_WR'};`,
      ...lines,
      ...(granted
        ? [`if (${name}) {`, ...(Object.keys(granted) as (keyof typeof granted)[]).map((f) => `\tnote_num(${call.seq}, "createQp", "${f}", ${granted[f]}, qp_init.cap.${f});`), '}']
        : []),
    ];
  },
  modifyQp: (group, scope) => {
    const call = first(group);
    const qp = scope.ref('qp', call.args.qp);
    return [
      ...announce(group, `${call.args.attr.qp_state ? `to ${call.args.attr.qp_state}, ` : ''}mask ${call.args.mask.join(' | ')}`),
      'memset(&qp_attr, 0, sizeof(qp_attr));',
      ...qpAttrLines(call.args.attr, scope, call.seq),
      `ret = ${qp} ? ${wrapCall('ib_modify_qp', [qp, '&qp_attr', flags('IB_QP_', call.args.mask)], ' : -EINVAL;', 1)}`,
      ...checkRet(call, 'ret'),
    ];
  },
  queryQp: (group, scope) => {
    const call = first(group);
    const recorded = call.result?.attr ?? undefined;
    const compared = QUERIED.filter((field) => recorded?.[field] !== undefined);
    const expected = (field: string, value: number) => (field === 'dest_qp_num' ? scope.qpNum(value) : String(value));
    const qp = scope.ref('qp', call.args.qp);
    return [
      ...announce(group, 'the QP state and the attributes that were set'),
      'memset(&qp_attr, 0, sizeof(qp_attr));',
      // As rvtc asks: every attribute up to DEST_QPN.
      `ret = ${qp} ? ib_query_qp(${qp}, &qp_attr, IB_QP_DEST_QPN * 2 - 1, &qp_init) : -EINVAL;`,
      ...checkRet(call, 'ret'),
      ...(call.result?.state ? [`check_num(${call.seq}, "queryQp", "state", IB_QPS_${call.result.state}, qp_attr.qp_state);`] : []),
      ...compared.map((field) => wrapCall('check_num', [String(call.seq), '"queryQp"', `"${field}"`, expected(field, recorded?.[field] as number), `qp_attr.${field}`], ';', 1)),
    ];
  },
  destroyQp: destroyed('qp', (name) => `ib_destroy_qp(${name})`),
  postRecv: (group, scope) => {
    const call = first(group);
    return post(call, scope.ref('qp', call.args.qp), recvList(call, scope));
  },
  postSend: (group, scope) => {
    const call = first(group);
    return post(call, scope.ref('qp', call.args.qp), sendList(call, scope));
  },
  /** Events come to the handlers the module gave each object (and the device): read until the recorded ones came, or the wait ran out. */
  getAsyncEvents: (group, scope) => {
    const call = first(group);
    const seen = group.flatMap((c) => c.result?.events ?? []).slice(0, MAX_EVENTS);
    const foundIt = (group.at(-1)?.result?.events.length ?? 0) > 0;
    const evs = `ev_${call.seq}`;
    scope.declare(`static struct ib_event ${evs}[MAX_EVENTS];`);
    return [
      ...announce(group, `read events until ${foundIt ? `${seen.length} came` : 'the wait ran out'} (the recording saw ${seen.length})`),
      `n = read_events(${evs}, ${foundIt ? String(seen.length) : 'MAX_EVENTS'});`,
      `check_num(${call.seq}, "getAsyncEvents", "events", ${seen.length}, n);`,
      ...seen.flatMap((event, i) => eventChecks(call.seq, i, event, scope, evs)),
    ];
  },
  runConcurrent: runConcurrentStep,
};
