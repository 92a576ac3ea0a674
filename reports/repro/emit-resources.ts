import type { CallName } from '../../adapters/calls.js';
import type { QpAttr, QpAttrMask } from '../../spec/verbs/attrs.js';
import { block, byteList, cString, flags, u32 } from './c-syntax.js';
import { checkReturn, type Emitter, expectedReturn, stepTitle } from './expect.js';
import type { Recorded } from './recorded.js';
import type { Kind, Scope } from './scope.js';

/** Every call but the polls and event reads is a step of its own. */
export const first = <N extends CallName>(group: readonly Recorded<N>[]): Recorded<N> => group[0] as Recorded<N>;

/** A create: the variable, the call, and the comparison of success (a failed create stops the program). */
function created(call: Recorded<'allocPd' | 'regMr' | 'createCq' | 'createSrq' | 'createQp'>, kind: Kind, handle: number | null | undefined, scope: Scope, expr: string) {
  const name = scope.create(kind, handle ?? null, call.seq);
  return { name, lines: [`${name} = ${expr};`, `check_created(${call.seq}, ${cString(call.call)}, ${expectedReturn(call.result)}, ${name});`] };
}

const destroyed = (kind: Kind, fn: string) => (group: readonly Recorded<'deallocPd' | 'deregMr' | 'destroyCq' | 'destroySrq' | 'destroyQp'>[], scope: Scope) => {
  const call = first(group);
  const handle = (call.args as Record<Kind, number>)[kind];
  const lines = block(stepTitle(group, `destroy ${kind} ${handle}`), [`int ret = ${fn}(${scope.ref(kind, handle)});`, checkReturn(call, 'ret')]);
  if (call.result?.rawReturn === 0) scope.destroyed(kind, handle);
  return lines;
};

/** Fields of ibv_qp_attr that query compares, with the mask bit that asks for each. */
const QUERIED: readonly [keyof QpAttr & string, QpAttrMask][] = [
  ['dest_qp_num', 'DEST_QPN'],
  ['rq_psn', 'RQ_PSN'],
  ['sq_psn', 'SQ_PSN'],
  ['timeout', 'TIMEOUT'],
  ['retry_cnt', 'RETRY_CNT'],
  ['rnr_retry', 'RNR_RETRY'],
  ['min_rnr_timer', 'MIN_RNR_TIMER'],
  ['max_rd_atomic', 'MAX_QP_RD_ATOMIC'],
  ['max_dest_rd_atomic', 'MAX_DEST_RD_ATOMIC'],
];

function ahAttrLines(ah: NonNullable<QpAttr['ah_attr']>, scope: Scope, seq: number): string[] {
  const lines = [
    `attr.ah_attr.dlid = ${scope.lid(ah.dlid)};`,
    `attr.ah_attr.sl = ${ah.sl};`,
    `attr.ah_attr.port_num = ${ah.port_num};`,
    `attr.ah_attr.is_global = ${ah.is_global ? 1 : 0};`,
  ];
  if (ah.grh !== undefined) {
    lines.push(
      `attr.ah_attr.grh.dgid = ${scope.gidOf(ah.grh.dgid)};`,
      `attr.ah_attr.grh.sgid_index = ${ah.grh.sgid_index};`,
      `attr.ah_attr.grh.hop_limit = ${ah.grh.hop_limit};`,
      `attr.ah_attr.grh.flow_label = ${ah.grh.flow_label};`,
      `attr.ah_attr.grh.traffic_class = ${ah.grh.traffic_class};`,
    );
  } else if (scope.port !== undefined && scope.gid !== undefined) {
    lines.push(`grh_if_roce(${seq}, &attr.ah_attr, &${scope.port}, &${scope.gid});`);
  }
  return lines;
}

/** One assignment per attribute the recording set; the mask is the recorded one. */
function qpAttrLines(attr: QpAttr, scope: Scope, seq: number): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(attr) as [keyof QpAttr, QpAttr[keyof QpAttr]][]) {
    if (value === undefined) continue;
    if (key === 'qp_state' || key === 'cur_qp_state') lines.push(`attr.${key} = IBV_QPS_${String(value)};`);
    else if (key === 'qp_access_flags') lines.push(`attr.qp_access_flags = ${flags('IBV_ACCESS_', value as string[])};`);
    else if (key === 'path_mtu') lines.push(`attr.path_mtu = IBV_MTU_${String(value)};`);
    else if (key === 'dest_qp_num') lines.push(`attr.dest_qp_num = ${scope.qpNum(value as number)};`);
    else if (key === 'ah_attr') lines.push(...ahAttrLines(value as NonNullable<QpAttr['ah_attr']>, scope, seq));
    else if (key === 'cap') {
      const cap = value as NonNullable<QpAttr['cap']>;
      lines.push(`attr.cap = (struct ibv_qp_cap){ .max_send_wr = ${cap.max_send_wr}, .max_recv_wr = ${cap.max_recv_wr}, .max_send_sge = ${cap.max_send_sge}, .max_recv_sge = ${cap.max_recv_sge}, .max_inline_data = ${cap.max_inline_data} };`);
    } else lines.push(`attr.${key} = ${u32(value as number)};`);
  }
  return lines;
}

export const resourceEmitters: { [N in 'queryDevice' | 'queryPort' | 'queryGid' | 'allocPd' | 'deallocPd' | 'regMr' | 'writeMr' | 'readMr' | 'deregMr' | 'createCq' | 'destroyCq' | 'createSrq' | 'modifySrq' | 'querySrq' | 'destroySrq' | 'createQp' | 'modifyQp' | 'queryQp' | 'destroyQp']: Emitter<N> } = {
  queryDevice: (group) => {
    const call = first(group);
    const notes = call.result === undefined ? [] : (['max_qp_wr', 'max_sge', 'max_srq_wr', 'max_srq_sge'] as const).map(
      (f) => `note_num(${call.seq}, "queryDevice", "${f}", ${call.result?.[f] ?? 0}, (uint64_t)attr.${f});`,
    );
    return block(stepTitle(group, 'the device attributes (the case derived some values from them)'), [
      'struct ibv_device_attr attr;',
      'int ret = ibv_query_device(ctx, &attr);',
      `check_str(${call.seq}, "queryDevice", "return", "0", errno_name(ret));`,
      ...notes,
    ]);
  },
  queryPort: (group, scope) => {
    const call = first(group);
    const port = `port_${call.seq}`;
    scope.declare(`static struct ibv_port_attr ${port};`);
    if (call.result !== undefined) scope.addPort(call.result.lid, port);
    return block(stepTitle(group, `port ${call.args.port_num}: its LID replaces the recorded one`), [
      `int ret = ibv_query_port(ctx, ${call.args.port_num}, &${port});`,
      `check_str(${call.seq}, "queryPort", "return", "0", errno_name(ret));`,
    ]);
  },
  queryGid: (group, scope) => {
    const call = first(group);
    const gid = `gid_${call.seq}`;
    scope.declare(`static union ibv_gid ${gid};`);
    if (call.result !== undefined) scope.addGid(call.result.gid, gid);
    return block(stepTitle(group, `GID ${call.args.index} of port ${call.args.port_num}: it replaces the recorded one`), [
      `int ret = ibv_query_gid(ctx, ${call.args.port_num}, ${call.args.index}, &${gid});`,
      `check_str(${call.seq}, "queryGid", "return", "0", errno_name(ret));`,
    ]);
  },
  allocPd: (group, scope) => {
    const call = first(group);
    return block(stepTitle(group, 'a protection domain'), created(call, 'pd', call.result?.pd, scope, 'ibv_alloc_pd(ctx)').lines);
  },
  deallocPd: destroyed('pd', 'ibv_dealloc_pd'),
  regMr: (group, scope) => {
    const call = first(group);
    const buffer = `buf_${call.seq}`;
    scope.declare(`static void *${buffer};`);
    const { name, lines } = created(call, 'mr', call.result?.mr, scope, `ibv_reg_mr(${scope.ref('pd', call.args.pd)}, ${buffer}, ${call.args.length}, ${flags('IBV_ACCESS_', call.args.access)})`);
    if (call.result !== undefined && call.result.mr !== null) {
      scope.addMr({ name, buffer, addr: call.result.addr, length: call.args.length, lkey: call.result.lkey, rkey: call.result.rkey });
    }
    return block(stepTitle(group, `${call.args.length} bytes of this program's own, standing in for the recorded MR at 0x${call.result?.addr.toString(16) ?? '?'}`), [
      `${buffer} = calloc(1, ${call.args.length});`,
      ...lines,
    ]);
  },
  writeMr: (group, scope) => {
    const call = first(group);
    const bytes = call.args.data.length / 2;
    if (bytes === 0) return [];
    const data = byteList(call.args.data);
    return block(stepTitle(group, `${bytes} bytes into the buffer at offset ${call.args.offset}`), [
      `static const unsigned char data[] = { ${data} };`,
      `memcpy((unsigned char *)${scope.ref('mr', call.args.mr)}->addr + ${call.args.offset}, data, sizeof data);`,
    ]);
  },
  readMr: (group, scope) => {
    const call = first(group);
    if (call.result === undefined || call.args.length === 0) return [];
    const data = byteList(call.result.data);
    return block(stepTitle(group, `${call.args.length} bytes at offset ${call.args.offset}: what arrived`), [
      `static const unsigned char expected[] = { ${data} };`,
      `check_bytes(${call.seq}, expected, (const unsigned char *)${scope.ref('mr', call.args.mr)}->addr + ${call.args.offset}, sizeof expected);`,
    ]);
  },
  deregMr: destroyed('mr', 'ibv_dereg_mr'),
  createCq: (group, scope) => {
    const call = first(group);
    const { name, lines } = created(call, 'cq', call.result?.cq, scope, `ibv_create_cq(ctx, ${call.args.cqe}, NULL, NULL, 0)`);
    const note = call.result === undefined ? [] : [`if (${name})`, `\tnote_num(${call.seq}, "createCq", "cqe", ${call.result.cqe}, (uint64_t)${name}->cqe);`];
    return block(stepTitle(group, `a CQ of ${call.args.cqe} entries`), [...lines, ...note]);
  },
  destroyCq: destroyed('cq', 'ibv_destroy_cq'),
  createSrq: (group, scope) => {
    const call = first(group);
    const { max_wr, max_sge, srq_limit } = call.args.attr;
    const { name, lines } = created(call, 'srq', call.result?.srq, scope, `ibv_create_srq(${scope.ref('pd', call.args.pd)}, &init)`);
    // Adapters report what was granted differently (from the create, or from a query after it):
    // printed, not compared; the querySrq steps compare what the device reports.
    const granted = call.result?.attr;
    return block(stepTitle(group, `an SRQ asking for max_wr ${max_wr}, max_sge ${max_sge}`), [
      `struct ibv_srq_init_attr init = { .attr = { .max_wr = ${max_wr}, .max_sge = ${max_sge}, .srq_limit = ${srq_limit} } };`,
      ...lines,
      ...(granted
        ? [
            `if (${name}) {`,
            `\tnote_num(${call.seq}, "createSrq", "granted max_wr", ${granted.max_wr}, init.attr.max_wr);`,
            `\tnote_num(${call.seq}, "createSrq", "granted max_sge", ${granted.max_sge}, init.attr.max_sge);`,
            '}',
          ]
        : []),
    ]);
  },
  modifySrq: (group, scope) => {
    const call = first(group);
    const fields = Object.entries(call.args.attr).filter(([, v]) => v !== undefined).map(([k, v]) => `.${k} = ${v}`);
    return block(stepTitle(group, `mask ${call.args.mask.join(' | ') || 'none'}`), [
      `struct ibv_srq_attr attr = { ${fields.join(', ')} };`,
      `int ret = ibv_modify_srq(${scope.ref('srq', call.args.srq)}, &attr, ${flags('IBV_SRQ_', call.args.mask)});`,
      checkReturn(call, 'ret'),
    ]);
  },
  querySrq: (group, scope) => {
    const call = first(group);
    const attr = call.result?.attr;
    return block(stepTitle(group, 'the SRQ attributes'), [
      'struct ibv_srq_attr attr;',
      'memset(&attr, 0, sizeof attr);',
      `int ret = ibv_query_srq(${scope.ref('srq', call.args.srq)}, &attr);`,
      checkReturn(call, 'ret'),
      ...(attr ? (['max_wr', 'max_sge', 'srq_limit'] as const).map((f) => `check_num(${call.seq}, "querySrq", "${f}", ${attr[f]}, attr.${f});`) : []),
    ]);
  },
  destroySrq: destroyed('srq', 'ibv_destroy_srq'),
  createQp: (group, scope) => {
    const call = first(group);
    const { init } = call.args;
    const cap = init.cap;
    const { name, lines } = created(call, 'qp', call.result?.qp, scope, `ibv_create_qp(${scope.ref('pd', call.args.pd)}, &init)`);
    if (call.result?.qp_num !== null && call.result?.qp_num !== undefined) scope.addQpNum(call.result.qp_num, name);
    const granted = call.result?.cap;
    return block(stepTitle(group, `an ${init.qp_type} QP${init.srq === undefined ? '' : ' on the SRQ'}`), [
      'struct ibv_qp_init_attr init = {',
      `\t.send_cq = ${scope.ref('cq', init.send_cq)},`,
      `\t.recv_cq = ${scope.ref('cq', init.recv_cq)},`,
      `\t.srq = ${init.srq === undefined ? 'NULL' : scope.ref('srq', init.srq)},`,
      `\t.cap = { .max_send_wr = ${cap.max_send_wr}, .max_recv_wr = ${cap.max_recv_wr}, .max_send_sge = ${cap.max_send_sge}, .max_recv_sge = ${cap.max_recv_sge}, .max_inline_data = ${cap.max_inline_data} },`,
      `\t.qp_type = IBV_QPT_${init.qp_type},`,
      `\t.sq_sig_all = ${init.sq_sig_all ? 1 : 0},`,
      '};',
      ...lines,
      ...(granted
        ? [`if (${name}) {`, ...(Object.keys(granted) as (keyof typeof granted)[]).map((f) => `\tnote_num(${call.seq}, "createQp", "${f}", ${granted[f]}, init.cap.${f});`), '}']
        : []),
    ]);
  },
  modifyQp: (group, scope) => {
    const call = first(group);
    return block(stepTitle(group, `${call.args.attr.qp_state ? `to ${call.args.attr.qp_state}, ` : ''}mask ${call.args.mask.join(' | ')}`), [
      'struct ibv_qp_attr attr;',
      'memset(&attr, 0, sizeof attr);',
      ...qpAttrLines(call.args.attr, scope, call.seq),
      `int ret = ibv_modify_qp(${scope.ref('qp', call.args.qp)}, &attr, ${flags('IBV_QP_', call.args.mask)});`,
      checkReturn(call, 'ret'),
    ]);
  },
  queryQp: (group, scope) => {
    const call = first(group);
    const recorded = call.result?.attr ?? undefined;
    const compared = QUERIED.filter(([field]) => recorded?.[field] !== undefined);
    const expected = (field: string, value: number) => (field === 'dest_qp_num' ? scope.qpNum(value) : String(value));
    return block(stepTitle(group, 'the QP state and the attributes that were set'), [
      'struct ibv_qp_attr attr;',
      'struct ibv_qp_init_attr init;',
      'memset(&attr, 0, sizeof attr);',
      `int ret = ibv_query_qp(${scope.ref('qp', call.args.qp)}, &attr, ${flags('IBV_QP_', ['STATE', ...compared.map(([, mask]) => mask)])}, &init);`,
      checkReturn(call, 'ret'),
      ...(call.result?.state ? [`check_str(${call.seq}, "queryQp", "state", "${call.result.state}", qp_state_name(attr.qp_state));`] : []),
      ...compared.map(([field]) => `check_num(${call.seq}, "queryQp", "${field}", ${expected(field, recorded?.[field] as number)}, attr.${field});`),
    ]);
  },
  destroyQp: destroyed('qp', 'ibv_destroy_qp'),
};
