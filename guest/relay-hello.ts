/**
 * `node dist/guest/relay-hello.js [--stall-knobs]`: run in the VM before the relay
 * (guest/relay/rvtc-relay.c) starts; prints the guest's Hello (JSON), which the relay sends first.
 * --stall-knobs makes the kernel's stall detectors quick and puts every log level on the console,
 * which is what the host reads of a guest that stopped answering: a lockup's backtrace is there too.
 */
import { release } from 'node:os';
import type { Hello } from '../adapters/kernel/relay-frames.js';
import { rdmavtModule } from '../adapters/kernel/rdmavt-module.js';
import { STALL_KNOBS, applyKnobs } from '../vm/stall-knobs.js';

if (process.argv.includes('--stall-knobs')) {
  for (const file of applyKnobs({ ...STALL_KNOBS, '/proc/sys/kernel/printk': '7' })) process.stderr.write(`relay-hello: could not set ${file}: a stuck CPU may go unreported\n`);
}
const hello: Hello = { release: release(), rdmavt: rdmavtModule() };
process.stdout.write(JSON.stringify(hello));
