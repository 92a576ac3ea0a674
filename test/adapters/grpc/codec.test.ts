import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdapterInfo } from '../../../adapters/adapter.js';
import { type CallName, calls } from '../../../adapters/calls.js';
import { messageCodec } from '../../../adapters/grpc/codec.js';
import { messageLookup } from '../../../adapters/grpc/descriptors.js';
import { callMethods, infoMethod, type Method } from '../../../adapters/grpc/methods.js';
import { packageDefinition } from '../../../adapters/grpc/protocol.js';

/** Through the codec and real protobuf bytes, both ways, as a request. */
function viaRequest(call: CallName, args: unknown): unknown {
  const { request, definition } = callMethods[call];
  return calls[call].args.parse(request.decode(definition.requestDeserialize(definition.requestSerialize(request.encode(calls[call].args.parse(args))))));
}

function viaResponse(method: Method, schema: z.ZodType, result: unknown): unknown {
  const { response, definition } = method;
  return schema.parse(response.decode(definition.responseDeserialize(definition.responseSerialize(response.encode(schema.parse(result))))));
}

describe('the codec between the call table and protobuf', () => {
  it('carries u64 values exactly, and negative num_sge', () => {
    const args = { qp: 3, wrs: [{ wr_id: 2n ** 64n - 1n, opcode: 'SEND', sg_list: [{ addr: 2n ** 63n + 5n, length: 7, lkey: 9 }], num_sge: -1 }] };
    expect(viaRequest('postSend', args)).toEqual(calls.postSend.args.parse(args));
  });

  it('keeps zeros, empty lists, null and absent apart', () => {
    const result = { rawReturn: 0, qp: null, qp_num: null, cap: null };
    expect(viaResponse(callMethods.createQp, calls.createQp.result, result)).toEqual(result);
    const srq = { rawReturn: 0, srq: 0, attr: { max_wr: 0, max_sge: 0, srq_limit: 0 } };
    expect(viaResponse(callMethods.createSrq, calls.createSrq.result, srq)).toEqual(srq);
    for (const attr of [{ qp_access_flags: [] }, { qp_state: 'INIT' as const }]) {
      expect(viaRequest('modifyQp', { qp: 1, attr, mask: [] })).toEqual({ qp: 1, attr, mask: [] });
    }
    expect(viaRequest('modifySrq', { srq: 2, attr: { srq_limit: 0 }, mask: ['LIMIT'] })).toEqual({ srq: 2, attr: { srq_limit: 0 }, mask: ['LIMIT'] });
  });

  it('carries both kinds of bad_wr and every kind of event element', () => {
    for (const badWr of [0, 3, 'untouched', 'null', 'foreign'] as const) {
      expect(viaResponse(callMethods.postSrqRecv, calls.postSrqRecv.result, { rawReturn: -22, badWr })).toEqual({ rawReturn: -22, badWr });
    }
    const events = calls.getAsyncEvents.result.shape.events.element;
    for (const element of [{ kind: 'qp', qp: 1 }, { kind: 'srq', srq: 0 }, { kind: 'cq', cq: 2 }, { kind: 'port', port_num: 1 }, { kind: 'device' }] as const) {
      const event = { event_type: 'SRQ_LIMIT_REACHED', element };
      expect(viaResponse(callMethods.getAsyncEvents, events, event)).toEqual(event);
    }
  });

  it('carries the adapter info', () => {
    const info = AdapterInfo.parse({
      adapter: 'model', implementation: 'x', version: '1', layer: 'kernel', device: { name: 'd', fw_ver: '1.0' },
      capabilities: ['srq'], defaultProfile: 'rdmavt', completionWaitMs: 5,
    });
    expect(viaResponse(infoMethod, AdapterInfo, info)).toEqual(info);
    // the model's quiet window: 0 stays 0 (one look), not absent (which would mean completionWaitMs)
    for (const quietMs of [0, 1000]) expect(viaResponse(infoMethod, AdapterInfo, { ...info, quietMs })).toEqual({ ...info, quietMs });
  });

  it('hands what protobuf cannot refuse to the schemas, which do', () => {
    const { request } = callMethods.createQp;
    const decoded = request.decode({ pd: '18446744073709551615', init: { qp_type: 'XRC' } });
    expect(calls.createQp.args.safeParse(decoded).success).toBe(false);
    expect(calls.createCq.args.safeParse(callMethods.createCq.request.decode({})).success).toBe(false);
  });

  it('refuses to build when the .proto and the call table disagree', () => {
    const lookup = messageLookup(packageDefinition);
    const status = lookup('Status');
    expect(() => messageCodec(z.object({ rawReturn: z.number().int() }), status, lookup)).toThrow(/INT32 cannot hold/);
    expect(() => messageCodec(z.object({ rawReturn: z.number().int().min(0).max(9), extra: z.string() }), status, lookup)).toThrow(/no field extra/);
    expect(() => messageCodec(z.object({}), status, lookup)).toThrow(/Status.raw_return: the schema has no such field/);
    const sendWr = lookup('SendWr');
    const flagsMayBeMissing = calls.postSend.args.shape.wrs.element.in.extend({ send_flags: z.array(z.string()).optional() });
    expect(() => messageCodec(flagsMayBeMissing, sendWr, lookup)).toThrow(/a list that may be missing needs a message of its own/);
  });
});
