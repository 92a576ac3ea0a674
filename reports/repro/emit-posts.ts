import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWr, SendWr, Sge } from '../../spec/verbs/wr.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import { block, cString, flags, u32, u64 } from './c-syntax.js';
import { first } from './emit-resources.js';
import { checkReturn, type Emitter, stepTitle } from './expect.js';
import { MAX_EVENTS } from './prelude.js';
import type { Recorded } from './recorded.js';
import type { Scope } from './scope.js';

/**
 * The sges of WR i: as many as num_sge says when that is more than the list holds (the extra ones
 * zeroed, as a C caller posting a too-large num_sge would have them), at least one so the array exists.
 */
function sgeLines(wr: RecvWr | SendWr, i: number, scope: Scope): string[] {
  const size = Math.max(wr.sg_list.length, wr.num_sge, 1);
  const fill = wr.sg_list.map(
    (s: Sge, k: number) => `sge${i}[${k}] = (struct ibv_sge){ .addr = ${scope.address(s.addr)}, .length = ${s.length}, .lkey = ${scope.key('lkey', s.lkey, s.addr)} };`,
  );
  return [`struct ibv_sge sge${i}[${size}];`, `memset(sge${i}, 0, sizeof sge${i});`, ...fill];
}

/** The WR array, linked as a list, with each WR's own fields; `extra` adds the send-only ones. */
function wrListLines(type: string, wrs: readonly (RecvWr | SendWr)[], scope: Scope, extra: (wr: SendWr, i: number) => string[] = () => []): string[] {
  if (wrs.length === 0) return [];
  return [
    `struct ${type} wr[${wrs.length}];`,
    'memset(wr, 0, sizeof wr);',
    ...wrs.flatMap((wr, i) => [
      ...sgeLines(wr, i, scope),
      `wr[${i}].wr_id = ${u64(wr.wr_id)};`,
      `wr[${i}].sg_list = sge${i};`,
      `wr[${i}].num_sge = ${wr.num_sge};`,
      ...(i + 1 < wrs.length ? [`wr[${i}].next = &wr[${i + 1}];`] : []),
      ...extra(wr as SendWr, i),
    ]),
  ];
}

const badWrExpected = (result: { badWr: number | string } | undefined) => (result === undefined ? 'NULL' : cString(String(result.badWr)));

/** A post: the list, bad_wr starting at the sentinel, then return value and bad_wr compared. */
function post(call: Recorded<'postSrqRecv' | 'postRecv' | 'postSend'>, fn: string, target: string, type: string, sentinel: string, listLines: string[]): string[] {
  const count = call.args.wrs.length;
  const list = count === 0 ? 'NULL' : 'wr';
  return block(stepTitle([call], `${count} WR(s)`), [
    ...listLines,
    `struct ${type} *bad = &${sentinel};`,
    `int ret = ${fn}(${target}, ${list}, &bad);`,
    checkReturn(call, 'ret'),
    `check_str(${call.seq}, ${cString(call.call)}, "bad_wr", ${badWrExpected(call.result)}, bad_wr_name(bad, &${sentinel}, ${list}, sizeof(struct ${type}), ${count}));`,
  ]);
}

function sendFields(wr: SendWr, i: number, scope: Scope): string[] {
  return [
    `wr[${i}].opcode = IBV_WR_${wr.opcode};`,
    `wr[${i}].send_flags = ${flags('IBV_SEND_', wr.send_flags)};`,
    ...(wr.imm_data === undefined ? [] : [`wr[${i}].imm_data = htobe32(${u32(wr.imm_data)});`]),
    ...(wr.rdma === undefined
      ? []
      : [`wr[${i}].wr.rdma.remote_addr = ${scope.address(wr.rdma.remote_addr)};`, `wr[${i}].wr.rdma.rkey = ${scope.key('rkey', wr.rdma.rkey, wr.rdma.remote_addr)};`]),
  ];
}

function wcCheck(seq: number, i: number, wc: WorkCompletion, scope: Scope): string {
  const opcode = wc.opcode === undefined ? '-1' : `IBV_WC_${wc.opcode}`;
  const byteLen = wc.byte_len === undefined ? '-1' : String(wc.byte_len);
  const imm = wc.with_imm && wc.imm_data !== undefined ? String(wc.imm_data) : '-1';
  return `if (n > ${i})\n\tcheck_wc(${seq}, ${i}, &wc[${i}], ${u64(wc.wr_id)}, IBV_WC_${wc.status}, ${opcode}, ${byteLen}, ${scope.qpNum(wc.qp_num)}, ${imm});`;
}

function eventChecks(seq: number, i: number, event: AsyncEvent, scope: Scope): string[] {
  const element = event.element;
  const where =
    element.kind === 'qp'
      ? [`ev[${i}].element.qp == ${scope.ref('qp', element.qp)}`, scope.ref('qp', element.qp)]
      : element.kind === 'srq'
        ? [`ev[${i}].element.srq == ${scope.ref('srq', element.srq)}`, scope.ref('srq', element.srq)]
        : element.kind === 'cq'
          ? [`ev[${i}].element.cq == ${scope.ref('cq', element.cq)}`, scope.ref('cq', element.cq)]
          : element.kind === 'port'
            ? [`ev[${i}].element.port_num == ${element.port_num}`, `port ${element.port_num}`]
            : undefined;
  return [
    `if (n > ${i}) {`,
    `\tcheck_str(${seq}, "getAsyncEvents", "event[${i}]", ibv_event_type_str(IBV_EVENT_${event.event_type}), ibv_event_type_str(ev[${i}].event_type));`,
    ...(where === undefined ? [] : [`\tcheck_str(${seq}, "getAsyncEvents", "event[${i}] of", ${cString(where[1] ?? '')}, ${where[0]} ? ${cString(where[1] ?? '')} : "another one");`]),
    '}',
  ];
}

export const postEmitters: { [N in 'postSrqRecv' | 'postRecv' | 'postSend' | 'pollCq' | 'getAsyncEvents']: Emitter<N> } = {
  postSrqRecv: (group, scope) => {
    const call = first(group);
    return post(call, 'ibv_post_srq_recv', scope.ref('srq', call.args.srq), 'ibv_recv_wr', 'untouched_recv', wrListLines('ibv_recv_wr', call.args.wrs, scope));
  },
  postRecv: (group, scope) => {
    const call = first(group);
    return post(call, 'ibv_post_recv', scope.ref('qp', call.args.qp), 'ibv_recv_wr', 'untouched_recv', wrListLines('ibv_recv_wr', call.args.wrs, scope));
  },
  postSend: (group, scope) => {
    const call = first(group);
    const lines = wrListLines('ibv_send_wr', call.args.wrs, scope, (wr, i) => sendFields(wr, i, scope));
    return post(call, 'ibv_post_send', scope.ref('qp', call.args.qp), 'ibv_send_wr', 'untouched_send', lines);
  },
  /** The harness polled until it had `max` (its first poll's) or its wait ran out; so does the program. */
  pollCq: (group, scope) => {
    const call = first(group);
    const want = call.args.max;
    const got = group.flatMap((c) => c.result?.completions ?? []);
    return block(stepTitle(group, `poll until ${want} completion(s) came (the recording got ${got.length})`), [
      `struct ibv_wc wc[${want}];`,
      `int n = poll_until(${scope.ref('cq', call.args.cq)}, wc, ${want});`,
      `check_num(${call.seq}, "pollCq", "completions", ${got.length}, (uint64_t)n);`,
      ...got.map((wc, i) => wcCheck(call.seq, i, wc, scope)),
    ]);
  },
  /** The harness read until the event it waited for came (then stop there too) or its wait ran out (then so does the program). */
  getAsyncEvents: (group, scope) => {
    const call = first(group);
    const seen = group.flatMap((c) => c.result?.events ?? []).slice(0, MAX_EVENTS);
    const foundIt = (group.at(-1)?.result?.events.length ?? 0) > 0;
    const until = foundIt ? String(seen.length) : 'MAX_EVENTS';
    return block(stepTitle(group, `read events until ${foundIt ? `${seen.length} came` : 'the wait ran out'} (the recording saw ${seen.length})`), [
      'struct ibv_async_event ev[MAX_EVENTS];',
      `int n = read_events(ev, ${until});`,
      `check_num(${call.seq}, "getAsyncEvents", "events", ${seen.length}, (uint64_t)n);`,
      ...seen.flatMap((event, i) => eventChecks(call.seq, i, event, scope)),
    ]);
  },
};
