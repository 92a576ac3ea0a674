import fc from 'fast-check';
import { type TracedCase, newlyReached } from '../../adapters/kernel/ftrace.js';
import type { Cmd } from './commands.js';
import type { World } from './world.js';

type Sequences = fc.Arbitrary<Iterable<Cmd>>;

/**
 * What the kernel ran during one fuzz run: `fuzz --kernel-coverage`'s function tracer
 * (cli/kernel-coverage.ts), or a test's fake.
 */
export interface CoverageSource {
  /** Before the run opens its side: recording starts afresh. */
  begin(): void;
  /** After the run closed its side: the driver's functions that ran since `begin`, and events lost to a full ring. `commands`: what the run executed. */
  end(commands: readonly object[]): { functions: ReadonlySet<string>; lost: number };
}

/** A sequence kept because it reached a function that no earlier run had. */
export interface CorpusEntry {
  /** The run that drew it, from 1 as the progress lines count. */
  run: number;
  /** What it executed, in order: a plain command list, replayable as one. */
  commands: readonly Cmd[];
  /** The functions it reached first, sorted. */
  added: readonly string[];
}

/** In fuzz.json: the kept sequences, and how many runs were drawn from them. */
export interface CorpusReport {
  entries: { run: number; commands: string[]; added: string[] }[];
  guidedRuns: number;
  /** Per run, the functions it reached first (by whom each was reached), and the events its ring lost. */
  traced: TracedCase[];
}

/** One command of a sequence drawn from the corpus, and the arbitrary that can shrink it where it was drawn afresh. */
interface Item {
  value: fc.Value<Cmd>;
  arbitrary?: fc.Arbitrary<Cmd>;
}

/** A command of a guided sequence, marking that it ran (shrinking keeps only those, as fc.commands does). */
class Step implements Cmd {
  ran = false;
  constructor(readonly cmd: Cmd) {}
  check(model: Readonly<object>) {
    return this.cmd.check(model);
  }
  run(model: object, world: World): void | Promise<void> {
    this.ran = true;
    return this.cmd.run(model, world);
  }
  toString() {
    return String(this.cmd);
  }
}

/**
 * A sequence drawn from the corpus (a kept one extended, or two spliced): a plain list of the same
 * commands fc.commands draws, so it runs, prints and shrinks like one. `from`: the run whose kept
 * sequence it started with.
 */
export class GuidedSequence implements Iterable<Cmd> {
  readonly steps: Step[];
  constructor(
    readonly items: readonly Item[],
    readonly from: number,
  ) {
    this.steps = items.map((item) => new Step(item.value.value_));
  }
  [Symbol.iterator]() {
    return this.steps[Symbol.iterator]();
  }
  toString() {
    return this.steps
      .filter((s) => s.ran)
      .map(String)
      .join(',');
  }
}

/** How a drawn value shrinks: with the fresh arbitrary's context, or as a guided sequence. */
type Context = { fresh: unknown } | { shrunkOnce: boolean };

/** The share of runs, in %, drawn from the corpus once it holds a sequence. */
export const GUIDED_PERCENT = 50;

/**
 * A guided sequence is at most this many times `maxCommands` long: extending a kept sequence is
 * how a run reaches a state that no sequence of `maxCommands` drawn at once is likely to (a full
 * CQ, a limit armed after the SRQ filled), and the bound keeps a run's time finite.
 */
export const GROWTH = 4;

/**
 * Sequences guided by coverage: while the corpus is empty, exactly what `fresh` draws (the same
 * seed draws the same runs); then, in GUIDED_PERCENT % of the runs, a kept sequence mutated: its
 * first commands (all of them half the time) followed by up to `maxCommands` newly drawn ones,
 * or, now and then, the start of one spliced to the end of another; GROWTH * `maxCommands` in all, at most.
 */
class GuidedSequences extends fc.Arbitrary<Iterable<Cmd>> {
  constructor(
    private readonly guide: Guide,
    private readonly fresh: Sequences,
    /** Draws the command arbitrary of a new tail (a sequence mode's commands). */
    private readonly commands: fc.Arbitrary<fc.Arbitrary<Cmd>>,
    private readonly maxCommands: number,
  ) {
    super();
  }

  generate(random: fc.Random, bias: number | undefined): fc.Value<Iterable<Cmd>> {
    const { entries } = this.guide.corpus;
    // The corpus draws from a copy: a run drawn afresh is the one the seed draws without a corpus, so its path replays it without one.
    const mrng = random.clone();
    if (entries.length === 0 || mrng.nextInt(1, 100) > GUIDED_PERCENT) {
      const drawn = this.fresh.generate(random, bias);
      return new fc.Value(drawn.value_, { fresh: drawn.context });
    }
    this.guide.guidedRuns++;
    const pick = () => entries[mrng.nextInt(0, entries.length - 1)] as CorpusEntry;
    const entry = pick();
    const longest = GROWTH * this.maxCommands;
    const kept = (commands: readonly Cmd[]): Item[] => commands.map((cmd) => ({ value: new fc.Value(cmd, undefined) }));
    let items: Item[];
    if (entries.length > 1 && mrng.nextInt(0, 3) === 0) {
      const other = pick();
      const start = entry.commands.slice(0, mrng.nextInt(1, entry.commands.length));
      items = kept([...start, ...other.commands.slice(mrng.nextInt(0, other.commands.length - 1))].slice(0, longest));
    } else {
      // at least one new command: the prefix leaves room for it
      const most = Math.min(entry.commands.length, longest - 1);
      const keep = mrng.nextInt(0, 1) === 0 ? most : mrng.nextInt(Math.min(1, most), most);
      const arbitrary = this.commands.generate(mrng, bias).value_;
      const tail = Array.from({ length: mrng.nextInt(1, Math.min(this.maxCommands, longest - keep)) }, () => ({ value: arbitrary.generate(mrng, bias), arbitrary }));
      items = [...kept(entry.commands.slice(0, keep)), ...tail];
    }
    return new fc.Value(new GuidedSequence(items, entry.run), { shrunkOnce: false });
  }

  canShrinkWithoutContext(_value: unknown): _value is Iterable<Cmd> {
    return false;
  }

  shrink(value: Iterable<Cmd>, context: unknown): fc.Stream<fc.Value<Iterable<Cmd>>> {
    const c = context as Context | undefined;
    if (c === undefined) return fc.Stream.nil();
    if ('fresh' in c) return this.fresh.shrink(value, c.fresh).map((v) => new fc.Value(v.value_, { fresh: v.context }));
    const sequence = value as GuidedSequence;
    const ran = sequence.items.filter((_, i) => sequence.steps[i]?.ran === true);
    return new fc.Stream(shrinkItems(ran, c.shrunkOnce)).map((items) => new fc.Value(new GuidedSequence(items, sequence.from), { shrunkOnce: true }));
  }
}

/**
 * Smaller lists of the commands that ran, as fc.commands shrinks: none at all (once), then
 * without runs of half, a quarter, ... one command, then with one command's arguments shrunk
 * (where it was drawn here; a kept command carries no context to shrink with).
 */
function* shrinkItems(items: readonly Item[], shrunkOnce: boolean): Generator<Item[]> {
  if (items.length === 0) return;
  if (!shrunkOnce) yield [];
  for (let size = 2 ** Math.floor(Math.log2(items.length)); size >= 1; size /= 2) {
    for (let start = 0; start < items.length; start += size) {
      if (size === items.length) continue;
      yield [...items.slice(0, start), ...items.slice(start + size)];
    }
  }
  for (const [i, item] of items.entries()) {
    if (item.arbitrary === undefined) continue;
    for (const smaller of item.arbitrary.shrink(item.value.value_, item.value.context)) {
      yield [...items.slice(0, i), { value: smaller, arbitrary: item.arbitrary }, ...items.slice(i + 1)];
    }
  }
}

/** The kept sequences, and which run first reached each function. */
export class Corpus {
  readonly entries: CorpusEntry[] = [];
  /** Function -> the run that first reached it. */
  readonly firstReached = new Map<string, number>();

  /** What run `run` reached: the functions no earlier run had, sorted; the run's commands are kept when there are any. */
  record(run: number, commands: readonly Cmd[], functions: ReadonlySet<string>): string[] {
    const added = [...newlyReached(new Set(this.firstReached.keys()), functions)].sort();
    for (const fn of added) this.firstReached.set(fn, run);
    if (added.length > 0 && commands.length > 0) this.entries.push({ run, commands: [...commands], added });
    return added;
  }
}

/**
 * The fuzzer guided by what the kernel ran (issue 43 item 5): each run recorded by `source`, the
 * runs that reach a function no earlier run reached kept in the corpus, and later runs drawn
 * from it (`sequences`).
 */
export class Guide {
  readonly corpus = new Corpus();
  /** Runs drawn from the corpus. */
  guidedRuns = 0;
  private readonly traced: TracedCase[] = [];

  constructor(private readonly source: CoverageSource) {}

  /** `fresh`'s sequences, and once the corpus holds some, kept ones mutated; tails drawn from `commands`' arbitraries. */
  sequences(fresh: Sequences, commands: fc.Arbitrary<fc.Arbitrary<Cmd>>, maxCommands: number): Sequences {
    return new GuidedSequences(this, fresh, commands, maxCommands);
  }

  begin(): void {
    this.source.begin();
  }

  /** The end of run `run` (from 1), which executed `commands`: what it reached, kept when new. */
  end(run: number, commands: readonly Cmd[]): void {
    const { functions, lost } = this.source.end(commands);
    this.traced.push({ caseId: `run ${run}`, functions: this.corpus.record(run, commands, functions), lost });
  }

  /** For a progress line: what the runs reached so far, and the corpus. */
  summary(): string {
    return `${this.corpus.firstReached.size} driver functions reached, ${this.corpus.entries.length} sequence(s) kept, ${this.guidedRuns} run(s) drawn from them`;
  }

  report(): CorpusReport {
    return {
      entries: this.corpus.entries.map((e) => ({ run: e.run, commands: e.commands.map(String), added: [...e.added] })),
      guidedRuns: this.guidedRuns,
      traced: [...this.traced],
    };
  }
}
