import { z } from 'zod';
import type { AccelChoice } from './accel.js';
import { type GuestKernel, KERNEL_FORMS } from './kernel.js';

/** Set in the guest's environment: which kernel booted and how, for the run's results (environment.vm). */
export const VM_RUN_ENV = 'RVT_VM_RUN';

/**
 * How the booted kernel's own kernel-doc of the cited files differs from the snapshot that judges
 * the run: a verdict read against another kernel's documentation says so in its report.
 */
export const DocDrift = z.union([
  z.strictObject({
    /** The version the snapshot was read from, and the booted kernel's source version. */
    pinned: z.string().max(100),
    checked: z.string().max(100),
    changes: z.number().int().nonnegative(),
    /** Clauses whose cited text changed. */
    clauses: z.array(z.string().max(200)).max(1000),
  }),
  z.strictObject({ unknown: z.string().max(1000) }),
]);
export type DocDrift = z.infer<typeof DocDrift>;

/** The kernel and accelerator a guest run had: one coordinate of its verdict (ARCHITECTURE.md). */
export const VmRunInfo = z.strictObject({
  kernel: z.strictObject({
    release: z.string().min(1).max(200),
    form: z.enum(KERNEL_FORMS),
    /** What was named on the host: a release, a staging folder or a tree. */
    origin: z.string().max(4096),
    /** A tree's commit (`git describe`-like), when it is a git checkout. */
    describe: z.string().max(200).optional(),
    /** The first 12 hex digits of the sha256 of its .config. */
    configHash: z.string().max(64),
  }),
  accel: z.enum(['kvm', 'tcg']),
  /** Why TCG, when KVM was not used. */
  accelWhy: z.string().max(1000).optional(),
  /** How the booted kernel's own kernel-doc of the cited files differs from the snapshot that judged the run. */
  docDrift: DocDrift.optional(),
});
export type VmRunInfo = z.infer<typeof VmRunInfo>;

export function vmRunInfo(kernel: GuestKernel, accel: AccelChoice, docDrift?: DocDrift): VmRunInfo {
  return {
    kernel: {
      release: kernel.release,
      form: kernel.form,
      origin: kernel.origin,
      ...(kernel.describe === undefined ? {} : { describe: kernel.describe }),
      configHash: kernel.configHash,
    },
    accel: accel.accel,
    ...(accel.why === undefined ? {} : { accelWhy: accel.why }),
    ...(docDrift === undefined ? {} : { docDrift }),
  };
}

/** The guest's own record of its boot, from the environment the host set; undefined outside the VM or when it does not parse. */
export function vmRunInfoFromEnv(env: NodeJS.ProcessEnv = process.env): VmRunInfo | undefined {
  const text = env[VM_RUN_ENV];
  if (text === undefined) return undefined;
  try {
    return VmRunInfo.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}
