import { spawn } from 'node:child_process';
import { constants, accessSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { release } from 'node:os';
import { join } from 'node:path';

/** How QEMU runs the guest: KVM where /dev/kvm works, TCG (emulation) otherwise. */
export type Accel = 'kvm' | 'tcg';

export interface AccelChoice {
  accel: Accel;
  /** Why TCG, when it is. */
  why?: string;
}

const KVM = '/dev/kvm';
/** Under KVM the kernel's first console line comes in well under a second; a host whose KVM spins (nested, seen here) says nothing. */
const PROBE_MS = 8000;
const PROBE_FILE = 'accel-probe.json';

/**
 * KVM when /dev/kvm exists, opens read-write and really runs a guest; TCG otherwise. A /dev/kvm
 * can be there and still not work: on these nested hosts QEMU aborts on an MSR with `-cpu host`
 * and spins without output with others. So the first use boots the kernel once under KVM with a
 * short deadline for its first console line; the answer is kept in the cache per host kernel and
 * QEMU binary. Never requires KVM.
 */
export async function chooseAccel(qemu: string, image: string, cacheDir: string, probeMs = PROBE_MS): Promise<AccelChoice> {
  try {
    accessSync(KVM, constants.R_OK | constants.W_OK);
  } catch {
    return { accel: 'tcg', why: `${KVM} is absent or not usable by this user` };
  }
  const stat = statSync(qemu);
  const key = `${release()} ${qemu} ${stat.size} ${Math.trunc(stat.mtimeMs)}`;
  const file = join(cacheDir, PROBE_FILE);
  try {
    const known = JSON.parse(readFileSync(file, 'utf8')) as { key: string; choice: AccelChoice };
    if (known.key === key) return known.choice;
  } catch {
    // not probed on this host yet
  }
  const choice = await probeKvm(qemu, image, probeMs);
  await writeFile(file, `${JSON.stringify({ key, choice, at: new Date().toISOString() })}\n`).catch(() => undefined);
  return choice;
}

/** The CPU model for the accelerator: the host's own under KVM, every feature TCG emulates otherwise. */
export const cpuFor = (accel: Accel) => (accel === 'kvm' ? 'host' : 'max');

function probeKvm(qemu: string, image: string, probeMs: number): Promise<AccelChoice> {
  return new Promise((resolve) => {
    const child = spawn(
      qemu,
      ['-accel', 'kvm', '-cpu', cpuFor('kvm'), '-m', '256', '-display', 'none', '-nodefaults', '-no-reboot', '-serial', 'stdio', '-kernel', image, '-append', 'console=ttyS0 panic=-1'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let settled = false;
    const done = (choice: AccelChoice) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(choice);
    };
    const timer = setTimeout(() => done({ accel: 'tcg', why: `a guest under KVM printed nothing within ${probeMs / 1000} s` }), probeMs);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Linux version')) done({ accel: 'kvm' });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', (error) => done({ accel: 'tcg', why: `QEMU could not start under KVM: ${error.message}` }));
    child.on('close', (code) => done({ accel: 'tcg', why: `QEMU under KVM exited (${code}) before the guest spoke: ${output.trim().split('\n')[0] ?? ''}` }));
  });
}
