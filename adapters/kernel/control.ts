import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { NAME_LEN, Op, OpenReq, RVTC_MAGIC, RVTC_VERSION, ReqHdr, RespHdr } from './abi.js';
import { cString, fromCString } from './struct.js';

/** Where the rvtc module's misc device appears. */
export const CONTROL_DEVICE = '/dev/rvtc';

/** The module refused a request before any verb ran (bad input, unknown handle, ...). */
export class KernelRefusal extends Error {
  override name = 'KernelRefusal';
  constructor(
    readonly op: number,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Most responses fit; a larger one (READ_MR, POLL_CQ of thousands) is read in a second step. */
const FIRST_READ = 64 * 1024;

/**
 * One session of the rvtc module: a file descriptor on /dev/rvtc bound to one device. Each
 * request is one write(), its response one or two read()s, synchronously: the module answers
 * before write() returns, and a session serves one request at a time anyway.
 */
export class KernelControl {
  private fd: number | undefined;
  private readonly scratch = Buffer.alloc(FIRST_READ);

  constructor(device: string, path = CONTROL_DEVICE) {
    this.fd = openSync(path, 'r+');
    try {
      this.request(Op.OPEN, OpenReq.encode({ device: cString(device, NAME_LEN) }));
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /** Sends one request; returns the response's payload, or throws KernelRefusal. */
  request(op: Op, payload: Buffer = Buffer.alloc(0)): Buffer {
    const fd = this.descriptor();
    const header = ReqHdr.encode({ magic: RVTC_MAGIC, version: RVTC_VERSION, op, len: ReqHdr.size + payload.length });
    writeSync(fd, payload.length === 0 ? header : Buffer.concat([header, payload]));
    let got = readSync(fd, this.scratch, 0, this.scratch.length, null);
    if (got < RespHdr.size) throw new Error(`rvtc answered request ${op} with ${got} bytes, less than a header`);
    const hdr = RespHdr.read(this.scratch, 0);
    if (hdr.magic !== RVTC_MAGIC || hdr.op !== op) {
      throw new Error(`rvtc answered request ${op} with a response to ${hdr.op} (magic 0x${hdr.magic.toString(16)})`);
    }
    let whole = this.scratch.subarray(0, got);
    if (hdr.len > got) {
      whole = Buffer.alloc(hdr.len);
      this.scratch.copy(whole, 0, 0, got);
      while (got < hdr.len) got += readSync(fd, whole, got, hdr.len - got, null);
    }
    const body = Buffer.from(whole.subarray(RespHdr.size, hdr.len));
    if (hdr.status < 0) throw new KernelRefusal(op, hdr.status, `rvtc refused the request: ${fromCString(body)}`);
    return body;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private descriptor(): number {
    if (this.fd === undefined) throw new Error('the rvtc session is closed');
    return this.fd;
  }
}
