import type { AdapterInfo, Profile } from '../../adapters/adapter.js';
import type { Expectation } from './load.js';
import { releaseInRange } from '../../spec/kernel-release.js';
import { expectationKey, type When } from './schema.js';

/** The run info an expectation's `when` is matched against. */
export interface RunInfo {
  adapter: string;
  device: string;
  driver: string | undefined;
  profile: Profile;
  /** The release of the kernel the device runs on (the kernel and ibverbs adapters say it); undefined for the model. */
  kernel: string | undefined;
}

export function runInfoOf(info: AdapterInfo, profile: Profile): RunInfo {
  return { adapter: info.adapter, device: info.device.name, driver: info.device.driver, profile, kernel: info.device.kernel };
}

const matches = (wanted: string | readonly string[] | undefined, actual: string | undefined) =>
  wanted === undefined || (actual !== undefined && (typeof wanted === 'string' ? wanted === actual : wanted.includes(actual)));

export function conditionsHold(when: When | undefined, run: RunInfo): boolean {
  if (when === undefined) return true;
  return (
    matches(when.adapter, run.adapter) &&
    matches(when.device, run.device) &&
    matches(when.driver, run.driver) &&
    matches(when.profile, run.profile) &&
    (when.kernel === undefined || (run.kernel !== undefined && releaseInRange(run.kernel, when.kernel)))
  );
}

/** The expectation that applies to each id (or `capability:<name>`) under this run: the first entry for it whose conditions hold. */
export function expectationsFor(entries: readonly Expectation[], run: RunInfo): ReadonlyMap<string, Expectation> {
  const applied = new Map<string, Expectation>();
  for (const entry of entries) {
    const key = expectationKey(entry);
    if (!applied.has(key) && conditionsHold(entry.when, run)) applied.set(key, entry);
  }
  return applied;
}
