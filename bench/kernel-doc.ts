import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RDMAVT_DIR, treeFiles } from '../spec/kernel-doc/kernel-source.js';
import { parseManPages } from '../spec/kernel-doc/man.js';
import { compareReadings, describeDisagreement, type Disagreement } from '../spec/kernel-doc/oracle-compare.js';
import { parseKernelDoc, type KernelDocParse } from '../spec/kernel-doc/parse.js';
import type { DocEntry, DocKind } from '../spec/kernel-doc/schema.js';
import { runKernelDocScript } from '../spec/kernel-doc/script-oracle.js';
import { emit, type Figure } from './measure.js';

/**
 * The kernel-doc parser on a whole kernel tree: how long it takes, and how often it agrees with
 * the kernel's own scripts/kernel-doc (as the oracle test compares, see oracle-compare.ts).
 *
 *   node dist/bench/kernel-doc.js --tree /tmp/ksrc/full/linux-source-6.1            whole tree
 *   node dist/bench/kernel-doc.js --tree ... --sample 200 --seed 19 [--list]         seeded sample (rdmavt aside)
 *   node dist/bench/kernel-doc.js --tree ... --files a.c,b.h --show                  disagreements
 *
 * Without --tree (or $KERNEL_TREE) it measures nothing: `npm run bench` runs everywhere.
 */

const { values } = parseArgs({
  options: {
    tree: { type: 'string', default: process.env.KERNEL_TREE },
    sample: { type: 'string' },
    seed: { type: 'string', default: '19' },
    files: { type: 'string' },
    list: { type: 'boolean', default: false },
    show: { type: 'boolean', default: false },
  },
});

const DOC_COMMENT = /^\/\*\*\s*$/m;

async function sourceFiles(root: string): Promise<string[]> {
  return (await treeFiles(root)).filter((name) => /\.[ch]$/.test(name)).sort();
}

/** A fixed sample of `count` files for a seed (mulberry32 shuffle), sorted. */
function seededSample(files: readonly string[], count: number, seed: number): string[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffled = [...files];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled.slice(0, count).sort();
}

function entries(parsed: KernelDocParse): DocEntry[] {
  return [...parsed.functions, ...parsed.types];
}

/** Entries compared and entries on which the readings differ, of some kinds. */
class Tally {
  entries = 0;
  disagreeing = 0;
  private readonly byField = new Map<string, number>();

  add(mine: readonly DocEntry[], problems: readonly Disagreement[], counts: (kind: DocKind) => boolean): void {
    const ofKind = problems.filter((problem) => counts(problem.kind));
    this.entries += mine.filter((entry) => counts(entry.kind)).length + ofKind.filter((p) => p.field === 'function' && p.ours === '(none)').length;
    this.disagreeing += new Set(ofKind.map((p) => p.function)).size;
    for (const problem of ofKind) this.byField.set(problem.field, (this.byField.get(problem.field) ?? 0) + 1);
  }

  agreement(): number {
    return this.entries === 0 ? 100 : (100 * (this.entries - this.disagreeing)) / this.entries;
  }

  summary(what: string): string {
    const fields = [...this.byField].map(([field, n]) => `${field} ${n}`).join(', ') || 'none';
    return `${this.entries} ${what}, ${this.disagreeing} disagree (${this.agreement().toFixed(2)} % agree; by field: ${fields})`;
  }
}

async function main(): Promise<void> {
  const root = values.tree;
  if (!root || !existsSync(join(root, 'scripts/kernel-doc'))) {
    process.stderr.write('kernel-doc bench: no kernel tree (--tree DIR or $KERNEL_TREE); skipped\n');
    emit('kernel-doc', []);
    return;
  }
  const all = await sourceFiles(root);
  // Read one at a time (the tree is 1 GB of text); only the parsing is timed.
  let parseMs = 0;
  const ours = new Map<string, DocEntry[]>();
  for (const file of all) {
    const text = readFileSync(join(root, file), 'utf8');
    const started = performance.now();
    const parsed = parseKernelDoc(text, file);
    parseMs += performance.now() - started;
    if (DOC_COMMENT.test(text)) ours.set(file, entries(parsed));
  }
  const documented = [...ours.keys()];
  const chosen = values.files
    ? values.files.split(',')
    : values.sample
      ? // Outside rdmavt, which the oracle test reads whole.
        seededSample(documented.filter((file) => !file.startsWith(`${RDMAVT_DIR}/`)), Number(values.sample), Number(values.seed))
      : documented;
  if (values.list) {
    process.stdout.write(`${chosen.join('\n')}\n`);
    return;
  }
  const pages = await runKernelDocScript(root, chosen);
  const counts = { functions: new Tally(), types: new Tally() };
  for (const file of chosen) {
    const script = parseManPages(pages.get(file) ?? '', file);
    const mine = ours.get(file) ?? entries(parseKernelDoc(await readFile(join(root, file), 'utf8'), file));
    const problems = compareReadings(file, mine, [...script.functions, ...script.types]);
    counts.functions.add(mine, problems, (kind) => kind === 'function');
    counts.types.add(mine, problems, (kind) => kind !== 'function');
    if (values.show) problems.forEach((problem: Disagreement) => process.stderr.write(`${describeDisagreement(problem)}\n`));
  }
  const scope = values.files ? `${chosen.length} files` : values.sample ? `sample of ${chosen.length} (seed ${values.seed})` : 'whole tree';
  process.stderr.write(`${chosen.length} documented files; ${counts.functions.summary('functions')}; ${counts.types.summary('structs, unions, enums and typedefs')}\n`);
  const command = `node dist/bench/kernel-doc.js --tree ${root}${values.sample ? ` --sample ${values.sample} --seed ${values.seed}` : ''}`;
  const agreement = (tally: Tally, what: string): Figure => ({
    name: `kernel-doc: ${what} agreeing with scripts/kernel-doc (${scope})`,
    value: Number(tally.agreement().toFixed(2)),
    unit: '%',
    target: { text: 'at least 99.9 % (issue 19)', met: tally.agreement() >= 99.9 },
    command,
  });
  const figures: Figure[] = [
    {
      name: `kernel-doc: ${all.length} .c/.h files parsed`,
      value: Math.round(parseMs),
      unit: 'ms',
      target: { text: 'under 10 s (issue 19)', met: parseMs < 10_000 },
      command,
    },
    agreement(counts.functions, 'functions'),
    agreement(counts.types, 'structs, unions, enums and typedefs'),
  ];
  emit('kernel-doc', figures);
}

await main();
