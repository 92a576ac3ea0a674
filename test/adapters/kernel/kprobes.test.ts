import { describe, expect, it } from 'vitest';
import { FunctionTrace, functionTraceWatch } from '../../../adapters/kernel/ftrace.js';
import type { InlineSiteTable } from '../../../adapters/kernel/inline-sites.js';
import { inlineProbes, kprobeDefinition, kprobeRemoval, parseKprobeHits } from '../../../adapters/kernel/kprobes.js';
import { CAPTURED, fakeTracefs } from './fake-tracefs.js';

/** Three copies from the committed 6.1.0-57 table: get_rvt_head twice in rvt_get_rwqe, rvt_post_one_wr once in rvt_post_send. */
const TABLE: InlineSiteTable = {
  module: 'rdmavt',
  release: '6.1.0-57-amd64',
  source: 'linux-image-6.1.0-57-amd64-dbg 6.1.192-3',
  buildId: 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca',
  sites: { get_rvt_head: ['rvt_get_rwqe+0x127', 'rvt_get_rwqe+0xa1'], rvt_post_one_wr: ['rvt_post_send+0xac'] },
};

/**
 * kprobe hits as 6.1's print_kprobe_event writes them (`EVENT: (SYM+OFF/SIZE [module])`), written by
 * hand from kernel/trace/trace_kprobe.c, among function-tracer lines: this machine loads no module.
 */
const WITH_HITS = `${CAPTURED}            node-161     [001] d..1.    52.123461: rvt_post_one_wr_0: (rvt_post_send+0xac/0x5a0 [rdmavt])
     kworker/1:1-37      [001] ..s1.    52.124021: get_rvt_head_1: (rvt_get_rwqe+0xa1/0x48d [rdmavt])
`;

describe('kprobes on inlined copies', () => {
  it('gives each copy its own event, named by the function and the copy, in the rvtcov group', () => {
    const probes = inlineProbes(TABLE);
    expect(probes.map((p) => kprobeDefinition('rdmavt', p))).toEqual([
      'p:rvtcov/get_rvt_head_0 rdmavt:rvt_get_rwqe+0x127',
      'p:rvtcov/get_rvt_head_1 rdmavt:rvt_get_rwqe+0xa1',
      'p:rvtcov/rvt_post_one_wr_0 rdmavt:rvt_post_send+0xac',
    ]);
    expect(kprobeRemoval(probes[2] as (typeof probes)[number])).toBe('-:rvtcov/rvt_post_one_wr_0');
  });

  it('reads the hits of our events from the trace, and nothing from the function tracer\'s lines or another group\'s events', () => {
    const probes = inlineProbes(TABLE);
    expect([...parseKprobeHits(WITH_HITS, probes)].sort()).toEqual(['get_rvt_head', 'rvt_post_one_wr']);
    expect(parseKprobeHits(CAPTURED, probes)).toEqual(new Set());
    expect(parseKprobeHits('    node-1 [000] d..1.    1.0: other_event_0: (rvt_post_send+0xac/0x5a0 [rdmavt])\n', probes)).toEqual(new Set());
  });
});

describe('the function tracer with an inline-site table', () => {
  it('places a kprobe per copy, one write each, enables the group, and counts a copy that ran among the functions that ran', () => {
    const fake = fakeTracefs();
    const trace = FunctionTrace.open('rdmavt', fake.files, TABLE);
    expect(trace.probes.map((p) => p.event)).toEqual(['get_rvt_head_0', 'get_rvt_head_1', 'rvt_post_one_wr_0']);
    expect(fake.read('kprobe_events').split('\n')).toHaveLength(3);
    expect(fake.read('events/rvtcov/enable')).toBe('1');
    const { watch, cases } = functionTraceWatch(trace);
    const span = watch.start('post_send/basic');
    fake.record(WITH_HITS, 0);
    span.end();
    expect(cases[0]?.functions).toContain('get_rvt_head');
    expect(cases[0]?.functions).toContain('rvt_post_one_wr');
  });

  it('keeps the sites the kernel accepts when it refuses one, and says which and why', () => {
    const fake = fakeTracefs(undefined, (site) => site === 'rdmavt:rvt_get_rwqe+0x127');
    const trace = FunctionTrace.open('rdmavt', fake.files, TABLE);
    expect(trace.probes.map((p) => p.site)).toEqual(['rvt_get_rwqe+0xa1', 'rvt_post_send+0xac']);
    expect(trace.refused).toEqual([{ function: 'get_rvt_head', site: 'rvt_get_rwqe+0x127', error: expect.stringMatching(/^EILSEQ/) }]);
  });

  it('removes only its own probes when it gives the tracer back (kprobe_events is never truncated)', () => {
    const fake = fakeTracefs();
    fake.files.append('kprobe_events', 'p:someone/else vfs_read\n');
    FunctionTrace.open('rdmavt', fake.files, TABLE).close();
    expect(fake.read('events/rvtcov/enable')).toBe('0');
    expect(fake.read('kprobe_events')).toBe('p:someone/else vfs_read');
    expect(fake.writes.filter((w) => w.startsWith('kprobe_events='))).toEqual([]);
  });

  it('first removes the probes of a run that died before giving them back, which would refuse the same names', () => {
    const fake = fakeTracefs();
    fake.files.append('kprobe_events', 'p:rvtcov/get_rvt_head_0 rdmavt:rvt_get_rwqe+0x127\np:someone/else vfs_read\n');
    const trace = FunctionTrace.open('rdmavt', fake.files, TABLE);
    expect(trace.refused).toEqual([]);
    expect(fake.writes).toContain('kprobe_events+=-:rvtcov/get_rvt_head_0\n');
    expect(fake.read('kprobe_events')).toContain('p:someone/else vfs_read');
  });

  it('places nothing without a table', () => {
    const fake = fakeTracefs();
    const trace = FunctionTrace.open('rdmavt', fake.files);
    expect([trace.probes, trace.refused, fake.read('kprobe_events')]).toEqual([[], [], '']);
  });
});
