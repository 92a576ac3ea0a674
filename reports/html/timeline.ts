import { z } from 'zod';
import { Violation } from '../../suites/concurrent/checker.js';
import type { Operation } from '../../suites/concurrent/history.js';
import { esc } from './escape.js';

/** A concurrent case's failed check carries its counterexamples (suites/concurrent/cases.ts). */
const WithCounterexamples = z.object({ counterexamples: z.array(Violation).min(1) });

const LANE = 26;
const LEFT = 110;
const WIDTH = 720;

/** What an operation did, in a few words a libibverbs user reads at a glance. */
function label(op: Operation): string {
  switch (op.kind) {
    case 'post':
      return `post wr_id ${op.first_wr_id}${op.count > 1 ? `..${op.first_wr_id + op.count - 1}` : ''}${op.errno === 0 ? '' : ` errno ${op.errno}, ${op.accepted} posted`}`;
    case 'recv':
      return `recv wr_id ${op.wr_id}${op.status === 0 ? '' : ` status ${op.status}`}`;
    case 'resize':
      return `resize max_wr ${op.max_wr}${op.errno === 0 ? '' : ` errno ${op.errno}`}`;
    case 'arm':
      return `arm srq_limit ${op.srq_limit}${op.errno === 0 ? '' : ` errno ${op.errno}`}`;
    case 'limit_event':
      return 'SRQ_LIMIT_REACHED read';
  }
}

/** The actor as the workload numbers it (posters first): the lane's name. */
const laneName = (op: Operation) => (op.kind === 'post' ? `poster ${op.actor}` : op.kind === 'recv' ? `consumer ${op.consumer}` : `${op.kind === 'limit_event' ? 'events' : op.kind === 'arm' ? 'armer' : 'resizer'} (${op.actor})`);

/** One counterexample as an SVG: a lane per actor, each operation a bar from its invocation to its response. */
function timeline(v: Violation): string {
  const lanes = [...new Set(v.witness.map(laneName))];
  const t0 = Math.min(...v.witness.map((o) => o.invoke));
  const t1 = Math.max(...v.witness.map((o) => o.response));
  const x = (t: number) => LEFT + ((t - t0) / Math.max(1, t1 - t0)) * (WIDTH - LEFT - 10);
  const height = lanes.length * LANE + 24;
  const bars = v.witness.map((op) => {
    const y = lanes.indexOf(laneName(op)) * LANE + 4;
    const [a, b] = [x(op.invoke), x(op.response)];
    return (
      `<rect class="tl-${op.kind}" x="${a.toFixed(1)}" y="${y}" width="${Math.max(2, b - a).toFixed(1)}" height="${LANE - 8}"><title>${esc(`${label(op)}: ${op.invoke} .. ${op.response} ns`)}</title></rect>` +
      `<text x="${(a + 3).toFixed(1)}" y="${y + LANE - 12}">${esc(label(op))}</text>`
    );
  });
  const names = lanes.map((name, i) => `<text class="tl-lane" x="4" y="${i * LANE + LANE - 8}">${esc(name)}</text>`);
  const span = `<text class="tl-lane" x="${LEFT}" y="${height - 4}">${esc(`${t1 - t0} from the first invocation to the last response (ns on a device, scheduler steps on the model)`)}</text>`;
  return (
    `<figure class="timeline"><figcaption><code>${esc(v.clause)}</code> ${esc(v.kind)}: ${esc(v.message)}</figcaption>` +
    `<svg role="img" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">${names.join('')}${bars.join('')}${span}</svg></figure>`
  );
}

/** The per-actor timelines of a check's counterexamples, or nothing when it has none. */
export function counterexampleTimelines(actual: unknown): string {
  const parsed = WithCounterexamples.safeParse(actual);
  return parsed.success ? parsed.data.counterexamples.map(timeline).join('') : '';
}
