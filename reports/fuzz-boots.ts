import type { FuzzFile } from './fuzz-file.js';

/** `items` added up by `keyOf`: `count` summed, the first item's other fields kept. */
function mergeBy<T>(items: readonly T[], keyOf: (item: T) => string, count: (item: T) => number, withCount: (item: T, n: number) => T): T[] {
  const merged = new Map<string, T>();
  for (const item of items) {
    const met = merged.get(keyOf(item));
    merged.set(keyOf(item), met === undefined ? item : withCount(met, count(met) + count(item)));
  }
  return [...merged.values()];
}

/** `{ [field]: items }`, or nothing when there are none (as a boot's fuzz.json leaves these out). */
const listed = <K extends string, T>(field: K, items: T[]) => (items.length === 0 ? {} : ({ [field]: items } as Record<K, T[]>));

/**
 * One fuzz.json for a fuzz that took several boots (a known fatal finding ended each but the
 * last, cli/commands/fuzz.ts): the runs, commands and time added up (boots excluded), what each
 * met merged, and the last boot's outcome (its divergence or finding, how it shrank) as the fuzz's.
 */
export function mergeBoots(boots: readonly FuzzFile[]): FuzzFile {
  const last = boots.at(-1);
  if (last === undefined) throw new TypeError('mergeBoots needs a boot');
  if (boots.length === 1) return last;
  const sum = (field: 'runs' | 'commands' | 'durationMs') => boots.reduce((n, b) => n + b[field], 0);
  const commands = sum('commands');
  const durationMs = sum('durationMs');
  const { expectedWarnings: _w, expectedDivergences: _d, expectedFindings: _f, cutShort: _c, skipped: _s, ...outcome } = last;
  const warnings = boots.flatMap((b) => b.expectedWarnings ?? []);
  return {
    ...outcome,
    runs: sum('runs'),
    commands,
    durationMs,
    commandsPerSecond: durationMs > 0 ? Math.round((commands / durationMs) * 1000) : 0,
    liveShare: commands > 0 ? boots.reduce((n, b) => n + b.liveShare * b.commands, 0) / commands : 0,
    expectedWarnings: warnings.filter((w, i) => warnings.findIndex((x) => x.id === w.id) === i),
    ...listed('expectedDivergences', mergeBy(boots.flatMap((b) => b.expectedDivergences ?? []), (d) => d.id, (d) => d.runs, (d, runs) => ({ ...d, runs }))),
    ...listed('expectedFindings', boots.flatMap((b) => b.expectedFindings ?? [])),
    cutShort: mergeBy(boots.flatMap((b) => b.cutShort ?? []), (c) => c.reason, (c) => c.runs, (c, runs) => ({ ...c, runs })),
    skipped: mergeBy(boots.flatMap((b) => b.skipped ?? []), (c) => c.reason, (c) => c.commands, (c, commands) => ({ ...c, commands })),
  };
}

/**
 * Boots one device fuzz may take when each ends in a known fatal finding: more means the finding
 * comes at once, and booting again only repeats it.
 */
export const MAX_BOOTS = 50;

/**
 * A fuzz of `runs` runs that a known fatal finding (a `fatal:` expectation: the guest locked up)
 * ends a boot of, not the fuzz: `boot` fuzzes in a new VM from run `fromRun` of the first boot's
 * seed, until the runs are done, or something else ends a boot (a divergence, another finding),
 * or `maxBoots` boots each ended in a known one. One fuzz.json for them all (mergeBoots).
 */
export async function acrossBoots(runs: number, seed: number | undefined, boot: (fromRun: number, seed: number | undefined) => Promise<FuzzFile>, tell: (line: string) => void, maxBoots = MAX_BOOTS): Promise<FuzzFile> {
  const boots: FuzzFile[] = [];
  for (let fromRun = 1; ; ) {
    const ran = await boot(fromRun, boots[0]?.seed ?? seed);
    boots.push(ran);
    const met = ran.expectedFindings?.at(-1);
    if (met === undefined || met.run >= runs) break;
    if (boots.length >= maxBoots) {
      tell(`${maxBoots} boots each ended by a known fatal finding: stopping at run ${met.run} of ${runs}`);
      break;
    }
    fromRun = met.run + 1;
    tell(`run ${met.run} met a known fatal finding (${met.id}): a new boot goes on from run ${fromRun}`);
  }
  return mergeBoots(boots);
}
