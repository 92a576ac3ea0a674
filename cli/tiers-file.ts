import { z } from 'zod';
import { Profile } from '../adapters/adapter.js';
import { VM_DEVICES } from '../vm/devices.js';
import { UserError } from '../spec/errors.js';
import { MAX_CASE_TIMEOUT_SECONDS } from './options.js';
import { loadYamlFile } from './yaml-file.js';

/** One tier: the shared suite by one adapter on one device, with its own reports. Paths are relative to the current directory. */
export const TierEntry = z
  .object({
    name: z.string().regex(/^[\w.-]+$/, 'letters, digits, . _ - only'),
    adapter: z.enum(['ibverbs', 'kernel']),
    device: z.enum(VM_DEVICES),
    profile: Profile.optional(),
    expectations: z.string().min(1).optional(),
    /** Per-case timeout in seconds, as run's --timeout. */
    timeout: z.number().int().positive().max(MAX_CASE_TIMEOUT_SECONDS).optional(),
    out: z.string().min(1),
    /** As run's --kernel-coverage: which functions of the device's driver each case ran, by the kernel's function tracer. */
    kernelCoverage: z.boolean().optional(),
    /** The kernel the tier's VM boots (as --kernel); tiers of one kernel share a boot. */
    kernel: z.string().min(1).optional(),
  })
  .strict();
export type TierEntry = z.infer<typeof TierEntry>;

export const TiersFile = z.object({ tiers: z.array(TierEntry).min(1) }).strict();

/** Reads and validates a tiers file; anything wrong is a UserError naming the file and the field. */
export async function loadTiersFile(path: string): Promise<TierEntry[]> {
  const { tiers } = await loadYamlFile(path, TiersFile, 'tiers file', 'see docs/CI.md for the format');
  const names = tiers.map((t) => t.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new UserError(`${path}: the tier name ${twice} is used twice`);
  return tiers;
}
