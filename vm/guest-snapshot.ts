import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pinnedSnapshotPath } from '../spec/snapshots/pinned.js';
import { findExecutable } from './host-tools.js';
import { quote } from './job-script.js';
import type { GuestKernel } from './kernel.js';
import { guestCli, projectRoot, vmCacheDir } from './project-root.js';
import { runInVm } from './run.js';
import { SNAPSHOT_ENV } from './snapshot-args.js';

/** The snapshot's entry, as vm/bundle.mjs writes it beside the guest bundle (three levels down, like it). */
const ENTRY = 'dist/guest/bundle/snapshot-entry.cjs';
/** RVT_VM_SNAPSHOT=0: the guest runs the bundle, not the blob (to compare the two, or as a way out). */
export const SNAPSHOT_OFF_ENV = 'RVT_VM_SNAPSHOT';
/** Building the blob in the guest took 20 s at load ~1.8 on these machines; this is for a host under heavy load. */
const BUILD_TIMEOUT_MS = 10 * 60 * 1000;

/** How a guest job starts the CLI: the command's first words and what its environment needs. */
export interface GuestNode {
  command: string[];
  env: Record<string, string>;
  /** What its start reads first (Node's binary, the blob or the bundle): the guest reads them ahead while it boots. */
  files: string[];
}

/**
 * The guest's CLI: from the V8 startup snapshot of this build when there is one (built in a VM of
 * its own the first time), else the bundle. The blob must be built in the guest: V8 refuses a blob
 * built under another CPU's features (the host's), so the emulated CPU builds its own.
 */
export async function guestNode(kernel: GuestKernel): Promise<GuestNode> {
  const main = guestCli();
  const blob = await guestSnapshot(realBuilder(kernel));
  if (blob === undefined) return { command: [process.execPath, main], env: {}, files: [process.execPath, main] };
  return { command: [process.execPath, '--snapshot-blob', blob, '--'], env: { [SNAPSHOT_ENV]: blob }, files: [process.execPath, blob] };
}

/** What building the blob takes: the VM, where blobs are kept, and the key of this build (tests give their own). */
export interface SnapshotBuilder {
  runInVm: typeof runInVm;
  dir: string;
  key: (entry: string) => string;
  /** The kernel the blob is built under and for; blobs of other kernels are kept. */
  kernel: GuestKernel;
}

const realBuilder = (kernel: GuestKernel): SnapshotBuilder => ({ runInVm, dir: join(vmCacheDir(), 'snapshots'), key: (entry) => snapshotKey(entry, kernel), kernel });

/** The blob for this build of the entry, Node and QEMU, building it when missing; undefined when off or when it cannot be built (said once). */
export async function guestSnapshot(builder: SnapshotBuilder): Promise<string | undefined> {
  if (process.env[SNAPSHOT_OFF_ENV] === '0') return undefined;
  const entry = join(projectRoot(), ENTRY);
  if (!existsSync(entry)) return undefined;
  const { dir } = builder;
  const prefix = `guest-${builder.kernel.release}-`;
  const name = `${prefix}${builder.key(entry)}`;
  const blob = join(dir, `${name}.blob`);
  if (existsSync(blob)) return blob;
  const failed = join(dir, `${name}.failed`);
  // A build that failed is not tried again for the same inputs: each run would pay for it.
  if (existsSync(failed)) return undefined;
  await mkdir(dir, { recursive: true });
  const tmp = `${blob}.tmp-${process.pid}`;
  const started = performance.now();
  process.stderr.write('rvt-conform: building the guest\'s startup snapshot in the VM (once per build; later VM runs start from it)\n');
  const output = new PassThrough();
  let said = '';
  output.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString('utf8')).slice(-4000);
  });
  // The build is checked by starting the CLI from the new blob: V8 refuses a blob it cannot use.
  const script = `${quote(process.execPath)} --no-warnings --snapshot-blob ${quote(tmp)} --build-snapshot ${quote(entry)} && ${quote(process.execPath)} --snapshot-blob ${quote(tmp)} -- --version`;
  let why: string | undefined;
  try {
    const result = await builder.runInVm({ command: ['/bin/sh', '-c', script], workDir: dir, kernel: builder.kernel, timeoutMs: BUILD_TIMEOUT_MS, stdout: output, stderr: output });
    if (result.exitCode !== 0 || !/^\d+\.\d+\.\d+/m.test(said)) why = `exit ${result.exitCode}: ${said.trim()}`;
  } catch (error) {
    // The VM's trouble (a boot that hung, a timeout on a loaded host), not the build's: this run
    // goes on with the bundle, and the next one tries the build again.
    await rm(tmp, { force: true });
    process.stderr.write(`rvt-conform: the VM that builds the guest's startup snapshot failed, so this run uses the bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
  if (why !== undefined) {
    await rm(tmp, { force: true });
    await writeFile(failed, `${why}\n`);
    process.stderr.write(`rvt-conform: the guest's startup snapshot could not be built, so the VM runs the bundle (${failed}): ${why}\n`);
    return undefined;
  }
  await rename(tmp, blob);
  // Blobs of earlier builds for this kernel are of no further use (each is about 12 MB).
  for (const file of await readdir(dir)) if (file.startsWith(prefix) && !file.startsWith(name)) await rm(join(dir, file), { force: true });
  process.stderr.write(`rvt-conform: built the guest's startup snapshot in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return blob;
}

/**
 * What the blob depends on: the entry's bytes, the pinned kernel-doc snapshots it holds, the Node
 * binary that builds and runs it, the emulated CPU (QEMU's binary) and the guest kernel: Node reads
 * uname once, while the blob is built, so a blob built under 6.1 says 6.1 in a 6.12 guest (seen).
 */
function snapshotKey(entry: string, kernel: GuestKernel): string {
  const hash = createHash('sha256').update(readFileSync(entry)).update(process.version).update(process.execPath);
  const pinned = dirname(pinnedSnapshotPath());
  for (const file of readdirSync(pinned).filter((name) => name.endsWith('.json')).sort()) hash.update(file).update(readFileSync(join(pinned, file)));
  const qemu = findExecutable('qemu-system-x86_64');
  if (qemu !== undefined) {
    const { size, mtimeMs } = statSync(qemu);
    hash.update(`${qemu}:${size}:${mtimeMs}`);
  }
  hash.update(`${kernel.release}:${kernel.fingerprint}`);
  return hash.digest('hex').slice(0, 16);
}
