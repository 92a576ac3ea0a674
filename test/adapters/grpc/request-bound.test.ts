import { describe, expect, it } from 'vitest';
import { lookup } from '../../../adapters/grpc/methods.js';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { countFields } from '../../../adapters/grpc/request-bound.js';

const post = agentService.PostSend;
const sendWr = { wr_id: '1', opcode: 'SEND', send_flags: ['SIGNALED'], sg_list: [{ addr: '4096', length: 8, lkey: 7 }] };
const encode = (request: object) => post.requestSerialize(request as never);

describe('countFields (a request measured before it is decoded)', () => {
  it('counts every field, in nested messages and lists too', () => {
    // qp; per WR: the WR itself, wr_id, opcode, one flag, the SGE and its three fields
    expect(countFields(encode({ qp: '1', wrs: [sendWr, sendWr] }), lookup('PostSendRequest'), lookup, 1000)).toBe(1 + 2 * 8);
  });

  it('stops past the limit', () => {
    const buffer = encode({ qp: '1', wrs: Array.from({ length: 100 }, () => sendWr) });
    expect(countFields(buffer, lookup('PostSendRequest'), lookup, 50)).toBeGreaterThan(50);
  });

  it('throws for a malformed encoding (truncated, or a wire type the protocol does not use), so it is refused as malformed', () => {
    const buffer = encode({ qp: '1', wrs: Array.from({ length: 100 }, () => sendWr) });
    expect(() => countFields(buffer.subarray(0, buffer.length - 3), lookup('PostSendRequest'), lookup, 10_000)).toThrow(RangeError);
    expect(() => countFields(Buffer.from([0x09, 1, 2]), lookup('PostSendRequest'), lookup, 10_000)).toThrow(/truncated/);
    expect(() => countFields(Buffer.from([0x0b]), lookup('PostSendRequest'), lookup, 10_000)).toThrow(/wire type 3/);
  });
});
