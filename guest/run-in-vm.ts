import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { UserError } from '../spec/errors.js';
import { addonPath } from '../adapters/ibverbs/native/index.js';
import { RDMAVT_SOURCE_ENV } from '../vm/rdmavt-env.js';
import { VM_DEVICES, type VmDevice, devicePrelude, isVmDevice, rdmavtSourceDir } from '../vm/devices.js';
import { checkKernelConfig } from '../vm/kernel-config.js';
import { prepareKernel } from '../vm/kernel-modules.js';
import { type GuestKernel, kernelLabel, resolveKernel } from '../vm/kernel.js';
import { quote } from '../vm/job-script.js';
import { rvtcModule } from '../vm/rvtc.js';
import { type GuestNode, guestNode } from '../vm/guest-snapshot.js';
import { projectRoot, vmCacheDir } from '../vm/project-root.js';
import { runInVm, startEstimate, visibleInGuest, within } from '../vm/run.js';

/** Boot, a full suite under TCG, power-off: minutes; an hour means something hangs. */
const VM_RUN_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * `rvt-conform run --adapter ibverbs|kernel --vm ...`: the same run command, inside the VM. The guest
 * sees the host root read-only and the current directory read-write, so reports must go under it.
 * The kernel adapter's module is built on the host against the guest kernel's headers and loaded
 * in the guest before the run. Returns the guest run's exit status.
 */
export interface VmRunTarget {
  /** The device the run drives (default rxe0). */
  device?: string | undefined;
  /** rvt_sim0: the rdmavt source to build and load instead of the stock module. */
  rdmavtSrc?: string | undefined;
  /** Added to the guest command's environment. */
  env?: Record<string, string>;
  /** The kernel to boot (--kernel); the default kernel when not given. */
  kernel?: GuestKernel | undefined;
}

/** The options only the host acts on, with a value. */
const HOST_OPTIONS = ['--rdmavt-src', '--kernel'];

/** A subcommand's arguments without --vm, --rdmavt-src DIR and --kernel K, which the host acts on. */
export function guestArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--vm' || HOST_OPTIONS.some((option) => arg.startsWith(`${option}=`))) continue;
    if (HOST_OPTIONS.includes(arg)) {
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** The same subcommand (run, fuzz) inside the VM; see runRunInVm. */
export async function runRunInVm(adapter: string, runArgs: readonly string[], outDir: string, target: VmRunTarget = {}): Promise<number> {
  return runSubcommandInVm('run', adapter, runArgs, outDir, target);
}

export async function runSubcommandInVm(
  subcommand: 'run' | 'fuzz',
  adapter: string,
  args: readonly string[],
  outDir: string,
  target: VmRunTarget = {},
): Promise<number> {
  const device = target.device ?? 'rxe0';
  const workDir = process.cwd();
  const out = resolve(outDir);
  if (relative(workDir, out).startsWith('..')) {
    throw new UserError(`with --vm, --out must be inside the current directory (${workDir}): the guest can write only there`, {
      hint: `run from a directory that contains ${out}, or give a relative --out`,
    });
  }
  if (adapter === 'ibverbs' && !existsSync(addonPath())) {
    throw new UserError('the native binding is not built, so the VM would have nothing to run', { hint: 'rvt-conform build-native (in a checkout: npm run build:native)' });
  }
  if (!isVmDevice(device)) {
    throw new UserError(`the VM has no device ${device}`, { hint: `with --vm, --device is one of ${VM_DEVICES.join(', ')}` });
  }
  const kernel = target.kernel ?? resolveKernel();
  const modules = adapter === 'kernel' ? [await rvtcModule(kernel)] : [];
  const node = await guestNode(kernel);
  const started = performance.now();
  process.stderr.write(`rvt-conform: booting the VM for ${subcommand} --adapter ${adapter} on ${device} (${firstResultEstimate(subcommand)})\n`);
  const rdmavtSrc = target.rdmavtSrc === undefined ? undefined : rdmavtSourceDir(target.rdmavtSrc);
  // Only the report folder is shared read-write (uncached); the guest runs in the current
  // directory as it sees it through the cached read-only shares, so Node and the project load fast.
  await mkdir(out, { recursive: true });
  const where = visibleInGuest(workDir, out) ? { workDir: out, cwd: workDir } : { workDir };
  const result = await runInVm({
    command: [...node.command, subcommand, ...guestArgs(args)],
    ...where,
    kernel,
    modules,
    device,
    // libibverbs binds to rvt_sim0 only as a qib device (rdma-core's ipathverbs provider).
    deviceOptions: { qibId: adapter === 'ibverbs', ...(rdmavtSrc === undefined ? {} : { rdmavtSrc }) },
    // The report names the rdmavt the run used.
    env: { ...node.env, ...target.env, ...(rdmavtSrc === undefined ? {} : { [RDMAVT_SOURCE_ENV]: rdmavtSrc }) },
    readAhead: readAhead(node, [adapter]),
    timeoutMs: VM_RUN_TIMEOUT_MS,
    stderr: onFirstResult(process.stderr, () => recordFirstResult(subcommand, performance.now() - started)),
  });
  process.stderr.write(`rvt-conform: ${subcommand} in the VM exited with ${result.exitCode} (${(result.durationMs / 1000).toFixed(1)} s with boot; kernel ${kernelLabel(result.kernel)}, ${result.accel.accel})\n`);
  return result.exitCode;
}

/** What a guest run reads first: Node and the CLI, and the native binding its ibverbs worker loads. */
function readAhead(node: GuestNode, adapters: readonly string[]): string[] {
  return [...node.files, ...(adapters.includes('ibverbs') ? [addonPath()] : [])];
}

/** The progress line of a run's first case ("[1/107] pass ..."). */
const FIRST_RESULT = /^\[1\/\d+\] /m;

/** `sink`, and a call of `seen` when the guest's first case result goes through it. */
function onFirstResult(sink: NodeJS.WritableStream, seen: () => void): NodeJS.WritableStream {
  let pending = true;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (pending && FIRST_RESULT.test(chunk.toString('utf8'))) {
        pending = false;
        seen();
      }
      sink.write(chunk, done);
    },
  });
}

const firstResultFile = (subcommand: string) => join(vmCacheDir(), `first-result-${subcommand}.json`);

function recordFirstResult(subcommand: string, ms: number): void {
  // Best effort: a read-only cache only costs the next run its measured estimate.
  try {
    writeFileSync(firstResultFile(subcommand), `${JSON.stringify({ ms: Math.round(ms), at: new Date().toISOString() })}\n`);
  } catch {}
}

/** What the start-up message promises: when the first result came last time, measured; the boot alone before that. */
function firstResultEstimate(subcommand: string): string {
  try {
    const last = JSON.parse(readFileSync(firstResultFile(subcommand), 'utf8')) as { ms: number };
    return `the first result came ${(last.ms / 1000).toFixed(1)} s after the command last time`;
  } catch {
    return startEstimate();
  }
}

/** One tier of a multi-tier boot: the shared suite by one adapter on one device. */
export interface VmTier {
  name: string;
  adapter: 'ibverbs' | 'kernel';
  device: VmDevice;
  /** The guest's `run` arguments besides --adapter, --device and --out. */
  args: readonly string[];
  out: string;
}

/** What became of a tier: the guest run's exit status, or undefined when the VM ended before it did. */
export interface VmTierRun {
  tier: VmTier;
  out: string;
  exitCode: number | undefined;
}

/** Where a tier's guest run leaves its exit status, inside its report folder. */
const TIER_STATUS = '.tier-status';

/**
 * Several tiers in one boot, one after the other: every device the tiers name is brought up (and
 * rvtc loaded when a tier uses the kernel verbs), so CI pays the boot and the loading of Node once
 * instead of per tier. The report folders' common parent is the guest's read-write share, so it
 * must not hold the project itself (the guest loads it through the cached read-only share).
 */
export async function runTiersInVm(tiers: readonly VmTier[], env: Record<string, string> = {}, kernel: GuestKernel = resolveKernel()): Promise<VmTierRun[]> {
  const cwd = process.cwd();
  const outs = tiers.map((tier) => resolve(tier.out));
  for (const [i, out] of outs.entries()) {
    if (!within(out, cwd)) throw new UserError(`tier ${tiers[i]?.name}: its out ${out} is not inside the current directory (${cwd}): the guest can write only there`);
  }
  if (new Set(outs).size !== outs.length) throw new UserError('two tiers write into the same out folder', { hint: 'give each tier its own out' });
  const shared = outs.reduce((common, out) => {
    let dir = common;
    while (!within(out, dir)) dir = resolve(dir, '..');
    return dir;
  });
  if (within(projectRoot(), shared)) {
    throw new UserError(`the tiers' out folders meet at ${shared}, which holds the project: the guest would load it through the uncached read-write share`, {
      hint: 'put every out under one folder, e.g. conformance-report/',
    });
  }
  if (tiers.some((t) => t.adapter === 'ibverbs') && !existsSync(addonPath())) {
    throw new UserError('the native binding is not built, so the ibverbs tiers would have nothing to run', { hint: 'rvt-conform build-native (in a checkout: npm run build:native)' });
  }
  checkKernelConfig(kernel, { devices: tiers.map((t) => t.device) });
  await prepareKernel(kernel);
  const modules = tiers.some((t) => t.adapter === 'kernel') ? [await rvtcModule(kernel)] : [];
  const node = await guestNode(kernel);
  for (const out of outs) {
    await mkdir(out, { recursive: true });
    await rm(join(out, TIER_STATUS), { force: true });
  }
  const script: string[] = [];
  for (const [i, tier] of tiers.entries()) {
    const out = outs[i] as string;
    const status = quote(join(out, TIER_STATUS));
    const run = [...node.command, 'run', '--adapter', tier.adapter, '--device', tier.device, ...tier.args, '--out', out];
    // rvt_sim0 comes up afresh for each tier, as in a boot of its own: rdmavt's once-per-load
    // warnings (WARN_ONCE) are each tier's to see, and libibverbs needs it as a qib device.
    const setup =
      tier.device === 'rvt_sim0'
        ? ['rmmod rvt_sim rdmavt 2>/dev/null; true', ...(await devicePrelude('rvt_sim0', kernel, vmCacheDir(), { qibId: tier.adapter === 'ibverbs' })).setup]
        : [];
    script.push(
      `echo ${quote(`== tier ${tier.name}: ${tier.adapter} on ${tier.device}`)} >&2`,
      `if ${['true', ...setup].map((line) => `{ ${line}; }`).join(' && ')}; then`,
      `  ${run.map(quote).join(' ')}; echo $? >${status}`,
      `else echo ${quote(`rvt-vm: bringing ${tier.device} up for tier ${tier.name} failed`)} >&2; echo 125 >${status}; fi`,
    );
  }
  process.stderr.write(`rvt-conform: booting ${kernel.release} for ${tiers.length} tiers (${startEstimate()})\n`);
  const result = await runInVm({
    command: ['/bin/sh', '-c', script.join('\n')],
    workDir: shared,
    cwd,
    kernel,
    modules,
    // rvt_sim0 is brought up by each of its tiers.
    devices: tiers.map((t) => t.device).filter((device) => device !== 'rvt_sim0'),
    env: { ...node.env, ...env },
    readAhead: readAhead(node, tiers.map((t) => t.adapter)),
    timeoutMs: VM_RUN_TIMEOUT_MS,
  });
  process.stderr.write(`rvt-conform: ${tiers.length} tiers in the VM took ${(result.durationMs / 1000).toFixed(1)} s with boot (kernel ${kernelLabel(result.kernel)}, ${result.accel.accel})\n`);
  return Promise.all(
    tiers.map(async (tier, i) => {
      const out = outs[i] as string;
      const status = (await readFile(join(out, TIER_STATUS), 'utf8').catch(() => '')).trim();
      await rm(join(out, TIER_STATUS), { force: true });
      return { tier, out, exitCode: /^\d+$/.test(status) ? Number(status) : undefined };
    }),
  );
}
