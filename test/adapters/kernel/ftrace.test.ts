import { describe, expect, it } from 'vitest';
import {
  FunctionTrace,
  baseName,
  bufferSizeKb,
  functionTraceWatch,
  lostInTrace,
  newlyReached,
  parseFilterFunctions,
  parseOverrun,
  parseTraceFunctions,
} from '../../../adapters/kernel/ftrace.js';
import { UserError } from '../../../spec/errors.js';

import { CAPTURED, RDMAVT_FILTER, fakeTracefs } from './fake-tracefs.js';

describe('the function tracer', () => {
  it('reads the functions that ran from a captured trace: callees only, clones under their own name, comments and lost-event notes skipped', () => {
    expect([...parseTraceFunctions(CAPTURED)].sort()).toEqual(['rvt_copy_sge', 'rvt_create_srq', 'rvt_get_rwqe', 'rvt_post_send', 'rvt_post_srq_recv', 'rvt_rc_rnr_retry', 'rvt_ruc_loopback']);
    // not a caller (ib_post_srq_recv, call_timer_fn), not a header word
    expect(parseTraceFunctions(CAPTURED).has('ib_post_srq_recv')).toBe(false);
    expect(parseTraceFunctions('# tracer: function\n#\n')).toEqual(new Set());
  });

  it('reads the trace with the tgid column and with sym-offset on', () => {
    expect([...parseTraceFunctions('            node-161   (  161) [001] .....    52.1: rvt_post_recv+0x4/0x1a0 <-ib_post_recv+0x2a/0x40\n')]).toEqual(['rvt_post_recv']);
  });

  it('names a clone by the function it was cloned from', () => {
    expect(['rvt_copy_sge.part.0', 'rvt_qp_mr_clean.isra.0', 'get_allowed_ops.constprop.0', 'rvt_error_qp.cold', 'rvt_post_recv+0x4/0x1a0'].map(baseName)).toEqual([
      'rvt_copy_sge',
      'rvt_qp_mr_clean',
      'get_allowed_ops',
      'rvt_error_qp',
      'rvt_post_recv',
    ]);
  });

  it('counts the events the reader was told were lost, and the per-CPU overrun', () => {
    expect(lostInTrace(CAPTURED)).toBe(12);
    expect(parseOverrun('entries: 9\noverrun: 41\ncommit overrun: 0\n')).toBe(41);
    expect(parseOverrun('entries: 9\n')).toBe(0);
  });

  it('reads back the filter: the module\'s traceable functions, without a pending :mod: or the no-filter line', () => {
    expect([...parseFilterFunctions(RDMAVT_FILTER)]).toContain('rvt_copy_sge');
    expect(parseFilterFunctions(RDMAVT_FILTER).size).toBe(8);
    expect(parseFilterFunctions('#### all functions enabled ####\n')).toEqual(new Set());
    expect(parseFilterFunctions(':mod:rdmavt\n')).toEqual(new Set());
    expect(parseFilterFunctions('__ftrace_invalid_address___96 [rdmavt]\nrvt_post_recv [rdmavt]\n')).toEqual(new Set(['rvt_post_recv']));
  });

  it('writes back the ring size that was set, expanded or not', () => {
    expect(bufferSizeKb('7 (expanded: 1408)\n')).toBe('1408');
    expect(bufferSizeKb('4096\n')).toBe('4096');
    expect(bufferSizeKb('')).toBeUndefined();
  });

  it('takes the tracer for a module through a tracefs folder, records a case, and gives the tracer back as it was', () => {
    const fake = fakeTracefs();
    const trace = FunctionTrace.open('rdmavt', fake.files);
    expect(trace.traceable.has('rvt_destroy_qp')).toBe(true);
    expect(fake.writes).toContain('set_ftrace_filter=:mod:rdmavt');
    expect([fake.read('current_tracer'), fake.read('buffer_size_kb'), fake.read('tracing_on')]).toEqual(['function', '4096', '0']);

    const { watch, cases } = functionTraceWatch(trace);
    const span = watch.start('post_srq_recv/basic');
    expect(fake.read('tracing_on')).toBe('1');
    fake.record(CAPTURED, 3);
    expect(span.end()).toBeUndefined();
    expect(fake.read('tracing_on')).toBe('0');
    expect(cases).toEqual([
      { caseId: 'post_srq_recv/basic', functions: ['rvt_copy_sge', 'rvt_create_srq', 'rvt_get_rwqe', 'rvt_post_send', 'rvt_post_srq_recv', 'rvt_rc_rnr_retry', 'rvt_ruc_loopback'], lost: 15 },
    ]);

    trace.close();
    expect([fake.read('current_tracer'), fake.read('set_ftrace_filter'), fake.read('buffer_size_kb'), fake.read('tracing_on')]).toEqual(['nop', '', '1408', '1']);
  });

  it('refuses a module the tracer finds nothing of, and leaves the tracer as it was', () => {
    const fake = fakeTracefs(':mod:rdma_rxe\n');
    expect(() => FunctionTrace.open('rdma_rxe', fake.files)).toThrow(UserError);
    expect([fake.read('current_tracer'), fake.read('tracing_on')]).toEqual(['nop', '1']);
  });
});

describe('the per-case watch of the tracer', () => {
  /** A ring that tells what it was asked: each case records what `ran` holds when it ends. */
  function fakeTrace() {
    const calls: string[] = [];
    let ran: string[] = [];
    return {
      calls,
      run: (...fns: string[]) => ran.push(...fns),
      trace: {
        begin: () => {
          calls.push('begin');
          ran = [];
        },
        stop: () => calls.push('stop'),
        seen: () => ({ functions: new Set(ran), lost: ran.includes('overflow') ? 7 : 0 }),
      },
    };
  }

  it('gives each case what ran between its start and its end, nothing from before it', () => {
    const fake = fakeTrace();
    const { watch, cases } = functionTraceWatch(fake.trace);
    fake.run('rvt_alloc_pd');
    const a = watch.start('a');
    fake.run('rvt_post_recv', 'rvt_post_send');
    a.end();
    fake.run('rvt_dealloc_pd');
    const b = watch.start('b');
    fake.run('rvt_post_srq_recv', 'overflow');
    b.end();
    expect(cases).toEqual([
      { caseId: 'a', functions: ['rvt_post_recv', 'rvt_post_send'], lost: 0 },
      { caseId: 'b', functions: ['overflow', 'rvt_post_srq_recv'], lost: 7 },
    ]);
    expect(fake.calls).toEqual(['begin', 'stop', 'begin', 'stop']);
  });

  it('lets spans that overlap share the ring: the first empties it, the last stops it, none loses what the others saw', () => {
    const fake = fakeTrace();
    const { watch, cases } = functionTraceWatch(fake.trace);
    const a = watch.start('a');
    fake.run('rvt_post_recv');
    const b = watch.start('b');
    fake.run('rvt_post_send');
    a.end();
    fake.run('rvt_destroy_qp');
    b.end();
    expect(cases).toEqual([
      { caseId: 'a', functions: ['rvt_post_recv', 'rvt_post_send'], lost: 0 },
      { caseId: 'b', functions: ['rvt_destroy_qp', 'rvt_post_recv', 'rvt_post_send'], lost: 0 },
    ]);
    expect(fake.calls).toEqual(['begin', 'stop']);
  });
});

describe('newlyReached', () => {
  it('is what the later set reached that the earlier did not', () => {
    expect(newlyReached(new Set(['rvt_post_recv']), new Set(['rvt_post_recv', 'rvt_error_qp']))).toEqual(new Set(['rvt_error_qp']));
    expect(newlyReached(new Set(['rvt_post_recv', 'rvt_error_qp']), new Set(['rvt_post_recv']))).toEqual(new Set());
  });
});
