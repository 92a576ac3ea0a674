import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ANSWER_HEADER, HELLO_ID, type Hello, RelayKind, decodeAnswerHeader, encodeRequest } from '../adapters/kernel/relay-frames.js';
import { RELAY_ENV, RELAY_HELLO_ENV, RELAY_KMSG_ENV } from '../adapters/kernel/relay-channel.js';
import { UserError } from '../spec/errors.js';
import { consoleSplat, parseKmsgRecord } from '../adapters/kernel/kmsg.js';
import type { VmDevice } from '../vm/devices.js';
import type { GuestKernel } from '../vm/kernel.js';
import { projectRoot } from '../vm/project-root.js';
import { rvtcModule } from '../vm/rvtc.js';
import { PORT_NAMES } from '../vm/guest-init.js';
import { relayProgram } from './relay-program.js';
import { runInVm, type VmRunResult } from '../vm/run.js';

export interface RelayVmOptions {
  kernel: GuestKernel;
  device: VmDevice;
  /** The whole VM cycle; QEMU is killed when it passes. */
  timeoutMs: number;
  /** How long the guest may take to boot and start its relay. */
  readyTimeoutMs?: number;
}

/** The guest, as the work on the host sees it. */
export interface RelayGuest {
  hello: Hello;
  /** The console's first splat the relay did not carry, and what followed it (a guest that went down, or locked up, told it only there). */
  consoleSplat: () => Promise<string[]>;
  /** Powers the VM off now: a guest that locked up would not answer the quit, and waiting for it is time lost. */
  abandon: () => void;
}

/** What the host learns of the guest once the work is done. */
export interface RelayVmEnd {
  /** The guest's kernel console: where a crash that took it down is told. */
  consoleLogPath: string | undefined;
  /** The console's first splat and what followed it; empty when there is none. */
  consoleSplat: string[];
  /** Whether the relay quit when asked (a guest still alive); false: it was down, or killed. */
  quitCleanly: boolean;
}

/** Boot and the relay's start under TCG: seconds; minutes mean the guest is stuck. */
const READY_TIMEOUT_MS = 3 * 60 * 1000;
/** After quit, the relay exits and the guest powers off within seconds. */
const QUIT_GRACE_MS = 30_000;
const POLL_MS = 100;

/**
 * Boots the VM with `device` and the rvtc module, its job the relay (guest/relay/rvtc-relay.c), and
 * runs `work` on the host with this process's environment set so that every rvtc session (the
 * kernel adapter's worker inherits it) goes to the guest's /dev/rvtc and the kernel log watch
 * reads the guest's log. Then asks the relay to quit, or kills the VM when it does not (a guest
 * that locked up). The host runs the harness and the model at its own speed: only the verbs'
 * bytes cross into the emulated machine.
 */
export async function withRelayVm<T>(options: RelayVmOptions, work: (guest: RelayGuest) => Promise<T>): Promise<{ value: T; end: RelayVmEnd }> {
  const dir = await mkdtemp(join(tmpdir(), 'rvt-relay-'));
  const base = join(dir, 'relay');
  const kmsgFile = join(dir, 'kmsg');
  const kill = new AbortController();
  let consoleLog: string | undefined;
  const saved = { [RELAY_ENV]: process.env[RELAY_ENV], [RELAY_KMSG_ENV]: process.env[RELAY_KMSG_ENV], [RELAY_HELLO_ENV]: process.env[RELAY_HELLO_ENV] };
  try {
    execFileSync('mkfifo', [`${base}.in`, `${base}.out`]);
    writeFileSync(kmsgFile, '');
    const vm = runInVm({
      // The hello (the guest's release, its rdmavt) is Node's to find, once; then the relay, in C.
      command: ['/bin/sh', '-c', 'hello=$("$1" "$2" --stall-knobs) || exit 1; exec "$3" --hello "$hello" --port "$4"', 'relay', process.execPath, join(projectRoot(), 'dist/guest/relay-hello.js'), await relayProgram(), PORT_NAMES.relay],
      workDir: dir,
      cwd: projectRoot(),
      devices: [options.device],
      modules: [await rvtcModule(options.kernel)],
      kernel: options.kernel,
      relayPipe: base,
      signal: kill.signal,
      onConsoleLog: (path) => {
        consoleLog = path;
      },
      readAhead: [process.execPath],
      timeoutMs: options.timeoutMs,
      stdout: process.stderr,
    });
    // Settled: the VM is over (its result, or why it could not run).
    const over = vm.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const hello = await helloOf(base, kmsgFile, over, options.readyTimeoutMs ?? READY_TIMEOUT_MS);
    Object.assign(process.env, { [RELAY_ENV]: base, [RELAY_KMSG_ENV]: kmsgFile, [RELAY_HELLO_ENV]: JSON.stringify(hello) });
    let value: T;
    try {
      const splat = async () => (consoleLog === undefined ? [] : consoleSplat(await readFile(consoleLog, 'utf8').catch(() => ''), lastRecordUsec(await readFile(kmsgFile, 'utf8'))));
      value = await work({ hello, consoleSplat: splat, abandon: () => kill.abort() });
    } catch (error) {
      kill.abort();
      await over;
      throw error;
    }
    const quitCleanly = askToQuit(base);
    const ended = await Promise.race([over, sleep(QUIT_GRACE_MS).then(() => undefined)]);
    if (ended === undefined) kill.abort();
    const last = ended ?? (await over);
    const result = 'result' in last ? (last.result as VmRunResult) : undefined;
    const consoleLogPath = result?.consoleLogPath ?? (last as { error?: { consoleLogPath?: string } }).error?.consoleLogPath;
    const console = consoleLogPath === undefined ? '' : await readFile(consoleLogPath, 'utf8').catch(() => '');
    return { value, end: { consoleLogPath, consoleSplat: consoleSplat(console), quitCleanly: quitCleanly && ended !== undefined && result?.exitCode === 0 } };
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    kill.abort();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The time of the last kernel log record the relay carried (-1: none), from the file it appends them to. */
function lastRecordUsec(kmsg: string): number {
  let last = -1;
  for (const line of kmsg.split('\n')) last = Math.max(last, parseKmsgRecord(line)?.usec ?? -1);
  return last;
}

/** Waits for the relay's Hello on `<base>.out`, or for the VM to end (its error said), or for the time to pass. */
async function helloOf(base: string, kmsgFile: string, over: Promise<{ result: VmRunResult } | { error: unknown }>, timeoutMs: number): Promise<Hello> {
  // Non-blocking: QEMU opens the FIFOs only once it runs, and this process must go on waiting for it.
  const fd = openSync(`${base}.out`, constants.O_RDONLY | constants.O_NONBLOCK);
  let ended: { result: VmRunResult } | { error: unknown } | undefined;
  void over.then((end) => {
    ended = end;
  });
  const deadline = performance.now() + timeoutMs;
  try {
    let got = Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n = 0;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
      if (n > 0) got = Buffer.concat([got, chunk.subarray(0, n)]);
      if (got.length >= ANSWER_HEADER) {
        const header = decodeAnswerHeader(got);
        const size = ANSWER_HEADER + header.dataLength + header.kmsgLength;
        if (header.id !== HELLO_ID) throw new Error(`the VM's relay spoke first with answer ${header.id}, not its hello`);
        if (got.length >= size) {
          writeFileSync(kmsgFile, got.subarray(ANSWER_HEADER + header.dataLength, size), { flag: 'a' });
          return JSON.parse(got.toString('utf8', ANSWER_HEADER, ANSWER_HEADER + header.dataLength)) as Hello;
        }
      }
      if (n > 0) continue;
      if (ended !== undefined) {
        if ('error' in ended) throw ended.error;
        throw new UserError(`the VM's relay exited (status ${ended.result.exitCode}) before it was ready`, { hint: `its messages are above; kernel console log: ${ended.result.consoleLogPath}` });
      }
      if (performance.now() > deadline) throw new UserError(`the VM's relay was not ready within ${timeoutMs / 1000} s`, { hint: 'the guest is stuck booting or starting node; try again, and see the console log under .vm-cache/logs' });
      await sleep(POLL_MS);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Asks the relay to quit, without waiting for its answer: a guest that locked up never answers,
 * and the caller then kills it. False when the request could not even be written.
 */
function askToQuit(base: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(`${base}.in`, constants.O_WRONLY | constants.O_NONBLOCK);
    writeSync(fd, encodeRequest(0xffffffff, 0, RelayKind.quit, Buffer.alloc(0)));
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
