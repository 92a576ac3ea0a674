import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { type Socket, connect } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { STAGE1_READY } from './guest-init.js';
import { quote } from './job-script.js';

/**
 * Booting from a saved guest. A cold boot spends 5-7 s under TCG before stage 1 is done (the
 * kernel, then the initramfs's modules); QEMU can save the guest there, where it waits for the
 * host's go, and a later boot starts from that file in about 2 s. The first boot of a machine
 * configuration saves it (0.7 s, about 100 MB for `-m 2048`), and later ones resume from it. The
 * file is keyed by everything that shapes the guest (QEMU, the kernel, the initramfs, the command
 * line's devices); per-run paths (shares, sockets, logs) may differ, since nothing is mounted yet.
 * RVT_VM_RESUME=0 boots cold every time.
 */
export const RESUME_OFF_ENV = 'RVT_VM_RESUME';

/** How long a resumed guest may take to be running again before its boot counts as failed. */
const RESUME_WITHIN_MS = 60_000;
/** How long a save may take: a few seconds on these machines, the file being written. */
const SAVE_WITHIN_MS = 120_000;
const POLL_MS = 20;

/** The saved guest of a kernel `release` for `shape` (QEMU's arguments with placeholder paths) and the files it boots. */
export function savedGuestPath(cacheDir: string, release: string, qemu: string, files: readonly string[], shape: readonly string[]): string {
  const stamp = (path: string) => {
    const info = statSync(path);
    return [path, info.size, info.mtimeMs];
  };
  const key = createHash('sha256')
    .update(JSON.stringify([[qemu, ...files].map(stamp), shape]))
    .digest('hex')
    .slice(0, 16);
  return join(cacheDir, 'saved', `guest-${release}-${key}.state`);
}

/** What a boot does about a saved guest: start from it, save one, or neither (turned off, or its second try). */
export type ResumePlan = { kind: 'resume'; path: string } | { kind: 'save'; path: string } | { kind: 'cold' };

export function resumePlan(path: string): ResumePlan {
  if (process.env[RESUME_OFF_ENV] === '0') return { kind: 'cold' };
  return existsSync(path) ? { kind: 'resume', path } : { kind: 'save', path };
}

/**
 * The boot after one that hung before stage 2. Unless saving is turned off, it boots cold and saves
 * afresh: a hung save would otherwise leave no saved guest (every later boot cold), and a hung
 * resume may have started from a bad saved guest (every later boot hung). The hang itself is
 * random more often than not, so saving again costs the retry nothing it would not pay anyway.
 */
export async function planAfterHang(hung: ResumePlan): Promise<ResumePlan> {
  if (hung.kind === 'cold') return hung;
  await rm(hung.path, { force: true });
  return { kind: 'save', path: hung.path };
}

/** The line that lets stage 1 go on: the host's time (seconds since the epoch) and fresh entropy. */
export function goLine(now = Date.now()): string {
  return `go ${Math.floor(now / 1000)} ${randomBytes(32).toString('hex')}\n`;
}

type QmpAnswer = { return?: unknown; error?: { desc?: string } };

/** A minimal QMP client: one command at a time, answers in order (events are skipped). */
class Qmp {
  private buffered = '';
  private readonly waiting: { resolve: (answer: QmpAnswer) => void; reject: (error: Error) => void }[] = [];
  private closed = false;
  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let end = this.buffered.indexOf('\n'); end !== -1; end = this.buffered.indexOf('\n')) {
        const message = JSON.parse(this.buffered.slice(0, end)) as QmpAnswer;
        this.buffered = this.buffered.slice(end + 1);
        if ('return' in message || 'error' in message) this.waiting.shift()?.resolve(message);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      this.closed = true;
      for (const { reject } of this.waiting.splice(0)) reject(new Error('QEMU closed its QMP socket'));
    });
  }

  static async open(path: string, until: number, exited: AbortSignal): Promise<Qmp> {
    const qmp = new Qmp(await connectWhenListening(path, until, exited));
    await qmp.execute('qmp_capabilities');
    return qmp;
  }

  async execute<T = unknown>(command: string, args?: Record<string, unknown>): Promise<T> {
    if (this.closed) throw new Error(`QEMU closed its QMP socket before ${command}`);
    const answer = await new Promise<QmpAnswer>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(`${JSON.stringify({ execute: command, ...(args === undefined ? {} : { arguments: args }) })}\n`);
    });
    if (answer.error !== undefined) throw new Error(`QMP ${command}: ${answer.error.desc ?? 'failed'}`);
    return answer.return as T;
  }

  close(): void {
    this.socket.destroy();
  }
}

/** QEMU creates its server sockets as it starts: retried until `until` (a Date.now() time) or QEMU's end. */
async function connectWhenListening(path: string, until: number, exited: AbortSignal): Promise<Socket> {
  return pollUntil(`QEMU to listen on ${path}`, until, exited, () =>
    new Promise<Socket | undefined>((resolve) => {
      const socket = connect(path, () => resolve(socket));
      socket.once('error', () => resolve(undefined));
    }),
  );
}

/** Asks `probe` every POLL_MS until it answers; gives up at `until` (a Date.now() time) or when QEMU has exited. */
async function pollUntil<T>(what: string, until: number, exited: AbortSignal, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    if (exited.aborted) throw new Error(`QEMU exited while the host waited for ${what}`);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

export interface GuestStart {
  plan: ResumePlan;
  consoleSocket: string;
  qmpSocket: string;
  consoleLog: string;
  /** Aborted when QEMU has exited: nothing is waited for after that. */
  exited: AbortSignal;
}

/**
 * Gets the guest past stage 1: on a resume, waits until QEMU runs the saved guest; otherwise waits
 * for stage 1's ready line and, to save, writes the guest to a file (then renamed into place, so a
 * half-written one is never used) and lets it run on. Then says go on the console. Rejects when any
 * step fails; the caller kills QEMU.
 */
export async function startGuest(start: GuestStart): Promise<void> {
  const { plan, exited } = start;
  const qmp = await Qmp.open(start.qmpSocket, Date.now() + RESUME_WITHIN_MS, exited);
  const consoleIn = await connectWhenListening(start.consoleSocket, Date.now() + RESUME_WITHIN_MS, exited);
  consoleIn.on('error', () => {});
  try {
    if (plan.kind === 'resume') {
      await pollUntil('the saved guest to run', Date.now() + RESUME_WITHIN_MS, exited, async () => {
        const { status } = await qmp.execute<{ status: string }>('query-status');
        return status === 'running' ? true : undefined;
      });
    } else {
      // The boot watchdog bounds this wait: a guest that never gets here is killed as hung.
      await pollUntil('stage 1', Number.POSITIVE_INFINITY, exited, () => (logHas(start.consoleLog, STAGE1_READY) ? true : undefined));
      if (plan.kind === 'save') await save(qmp, plan.path, exited);
    }
    consoleIn.write(goLine());
  } finally {
    qmp.close();
    // QEMU holds the go line for the guest; the connection is not needed any more.
    consoleIn.end();
  }
}

/**
 * Writes the waiting guest to `path` for later boots, then lets it run on. A save that fails costs
 * later boots their speed, not this run: it is said on stderr, and the guest goes on.
 */
async function save(qmp: Qmp, path: string, exited: AbortSignal): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  try {
    await mkdir(dirname(path), { recursive: true });
    removeOtherStates(path);
    await qmp.execute('migrate', { uri: `exec:cat > ${quote(partial)}` });
    const status = await pollUntil('the guest to be saved', Date.now() + SAVE_WITHIN_MS, exited, async () => {
      const { status: s } = await qmp.execute<{ status?: string }>('query-migrate');
      return s === 'completed' || s === 'failed' || s === 'cancelled' ? s : undefined;
    });
    if (status !== 'completed') throw new Error(`QEMU's migration ${status}`);
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    process.stderr.write(`rvt-vm: could not save the booted guest for later boots (${error instanceof Error ? error.message : String(error)}); this boot goes on\n`);
  }
  // A completed save leaves the guest stopped (a failed one, running).
  const { status } = await qmp.execute<{ status: string }>('query-status');
  if (status !== 'running') await qmp.execute('cont');
}

/**
 * Saved guests of the same kernel's other configurations (100 MB each) and partial files over an
 * hour old. One is kept per kernel: CI alternates 6.1 and 6.12, and each would otherwise boot cold.
 */
function removeOtherStates(keep: string): void {
  const dir = dirname(keep);
  const sameKernel = basename(keep).replace(/-[0-9a-f]{16}\.state$/, '-');
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stale = name.endsWith('.partial') ? Date.now() - statSync(path).mtimeMs > 3_600_000 : path !== keep && name.startsWith(sameKernel);
    if (stale) rmSync(path, { force: true });
  }
}

function logHas(path: string, text: string): boolean {
  try {
    return readFileSync(path, 'utf8').includes(text);
  } catch {
    return false;
  }
}
