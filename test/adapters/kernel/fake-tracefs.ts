import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TraceFiles, tracefsAt } from '../../../adapters/kernel/ftrace.js';

/**
 * A function tracer's `trace` with the filter :mod:rdmavt, in 6.1's default format (its header and
 * trace_fn_trace's line), written by hand from kernel/trace/trace_output.c, not captured from a
 * kernel: this machine may not trace one.
 */
export const CAPTURED = readFileSync(new URL('./fixtures/rdmavt-function.trace', import.meta.url), 'utf8');

/** set_ftrace_filter as 6.1 reads it back after `:mod:rdmavt` (print_rec: the name, then the module). */
export const RDMAVT_FILTER = ['rvt_create_srq [rdmavt]', 'rvt_post_srq_recv [rdmavt]', 'rvt_post_send [rdmavt]', 'rvt_ruc_loopback [rdmavt]', 'rvt_copy_sge.part.0 [rdmavt]', 'rvt_get_rwqe [rdmavt]', 'rvt_rc_rnr_retry [rdmavt]', 'rvt_destroy_qp [rdmavt]', ''].join('\n');

/**
 * A tracefs folder and a fake kernel over it: what the kernel does on a write that a plain file
 * does not (the filter read back as the functions it took, an emptied ring's overrun counts reset,
 * a kprobe placed, refused (`refuse`: the sites it refuses; an event that exists) or removed, its group's folder made).
 */
export function fakeTracefs(filter = RDMAVT_FILTER, refuse: (site: string) => boolean = () => false) {
  const root = mkdtempSync(join(tmpdir(), 'tracefs-'));
  const files: Record<string, string> = {
    current_tracer: 'nop\n',
    buffer_size_kb: '7 (expanded: 1408)\n',
    tracing_on: '1\n',
    set_ftrace_filter: '#### all functions enabled ####\n',
    trace: '# tracer: nop\n',
    'per_cpu/cpu0/stats': 'entries: 0\noverrun: 0\ncommit overrun: 0\n',
    'per_cpu/cpu1/stats': 'entries: 0\noverrun: 0\ncommit overrun: 0\n',
    kprobe_events: '',
  };
  mkdirSync(join(root, 'per_cpu', 'cpu0'), { recursive: true });
  mkdirSync(join(root, 'per_cpu', 'cpu1'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
  const folder = tracefsAt(root);
  const writes: string[] = [];
  const kernel: TraceFiles = {
    ...folder,
    write(file, text) {
      writes.push(`${file}=${text}`);
      if (file === 'set_ftrace_filter' && text.startsWith(':mod:')) return folder.write(file, filter);
      if (file === 'trace') {
        for (const cpu of ['cpu0', 'cpu1']) folder.write(`per_cpu/${cpu}/stats`, 'entries: 0\noverrun: 0\n');
        return folder.write(file, '# tracer: function\n');
      }
      return folder.write(file, text);
    },
    append(file, text) {
      writes.push(`${file}+=${text}`);
      if (file !== 'kprobe_events') return folder.append(file, text);
      const [definition = '', site = ''] = text.trim().split(' ');
      // as the kernel: a removal takes the line out, a refused site fails the write and adds nothing
      if (definition.startsWith('-:')) return folder.write(file, folder.read(file).split('\n').filter((line) => !line.startsWith(`p:${definition.slice(2)} `)).join('\n'));
      if (refuse(site)) throw new Error(`EILSEQ: invalid or incomplete multibyte or wide character, write '${file}'`);
      if (folder.read(file).split('\n').some((line) => line.startsWith(`${definition} `))) throw new Error(`EEXIST: file already exists, write '${file}'`);
      mkdirSync(join(root, 'events', definition.slice(2).split('/')[0] ?? ''), { recursive: true });
      return folder.append(file, text);
    },
  };
  /** The kernel recording: what the ring holds, and what it overwrote on cpu1. */
  const record = (trace: string, overrun: number) => {
    folder.write('trace', trace);
    folder.write('per_cpu/cpu1/stats', `entries: 9\noverrun: ${overrun}\ncommit overrun: 0\n`);
  };
  return { root, files: kernel, writes, record, read: (file: string) => folder.read(file).trim() };
}

