import type { InlineSiteTable } from './inline-sites.js';

/** The kprobe events' group in tracefs (events/rvtcov/): ours alone, so closing removes only what we added. */
export const KPROBE_GROUP = 'rvtcov';

/** One kprobe on one inlined copy. */
export interface InlineProbe {
  /** The event's name: the function and the copy's index, so a hit names what ran. */
  event: string;
  function: string;
  /** CALLER+0xOFF in the module. */
  site: string;
}

/** A probe for each inlined copy in the table, in its order. */
export function inlineProbes(table: InlineSiteTable): InlineProbe[] {
  return Object.entries(table.sites).flatMap(([fn, sites]) =>
    sites.map((site, i) => ({ event: `${fn}_${i}`, function: fn, site })),
  );
}

/** The kprobe_events line that places `probe` (Documentation/trace/kprobetrace.rst: `p:GRP/EVENT MOD:SYM+offs`). */
export const kprobeDefinition = (module: string, probe: InlineProbe): string => `p:${KPROBE_GROUP}/${probe.event} ${module}:${probe.site}`;

/** The line that removes it again. */
export const kprobeRemoval = (probe: Pick<InlineProbe, 'event'>): string => `-:${KPROBE_GROUP}/${probe.event}`;

/** The events of our group that `kprobe_events` still lists (it reads back as `p:GRP/EVENT MOD:SYM+offs`). */
export function leftProbes(kprobeEvents: string): string[] {
  return kprobeEvents.split('\n').flatMap((line) => {
    const match = new RegExp(`^[pr]:${KPROBE_GROUP}/(\\w+)\\s`).exec(line);
    return match === null ? [] : [match[1] as string];
  });
}

/**
 * The functions whose inlined copies ran, from the `trace` file: a kprobe's hit reads
 * `<task>-<pid> [cpu] flags timestamp: EVENT: (CALLER+0xOFF/0xSIZE [module])` (kernel/trace/trace_kprobe.c,
 * print_kprobe_event), beside the function tracer's lines, which have no `: (` after the name.
 */
export function parseKprobeHits(text: string, probes: readonly InlineProbe[]): Set<string> {
  const byEvent = new Map(probes.map((p) => [p.event, p.function]));
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^.*?-\d+\s+(?:\(\s*[\d-]+\)\s+)?\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:\s+(\w+):\s+\(/.exec(line);
    const fn = match === null ? undefined : byEvent.get(match[1] as string);
    if (fn !== undefined) out.add(fn);
  }
  return out;
}
