/** How many lines about refusals the agent writes in a window; the rest are counted. */
export interface RefusalRate {
  lines: number;
  windowMs: number;
}

/** Enough to see who is refused and why; a flood (5,570 lines in 60 s) becomes a summary every 10 s. */
export const DEFAULT_REFUSAL_RATE: RefusalRate = { lines: 20, windowMs: 10_000 };

/** Clients a summary names, by how many of their refusals it stands for. */
const NAMED = 3;

/**
 * The agent's lines about what it refused (calls over a budget or without credentials, connections
 * refused or closed), at a bounded rate: a client that floods the agent with refused requests must
 * not flood its log too. Past `lines` in a window, refusals are counted per client, and one line
 * when the window ends says how many there were and whose.
 */
export class RefusalLog {
  private written = 0;
  private readonly held = new Map<string, number>();
  private window: NodeJS.Timeout | undefined;

  constructor(
    private readonly rate: RefusalRate,
    private readonly out: (line: string) => void,
  ) {}

  /** Whether the line about this refusal of `client` may be written now; if not, it is counted for the summary. */
  admit(client: string): boolean {
    if (this.window === undefined) {
      this.window = setTimeout(() => this.endWindow(), this.rate.windowMs);
      // a summary still due must not keep a closing agent's process alive
      this.window.unref();
    }
    if (this.written < this.rate.lines) {
      this.written++;
      return true;
    }
    this.held.set(client, (this.held.get(client) ?? 0) + 1);
    return false;
  }

  /** Writes the line about a refusal of `client`, when the rate allows. */
  say(client: string, line: string): void {
    if (this.admit(client)) this.out(line);
  }

  /** Writes the summary still due, if any. */
  close(): void {
    clearTimeout(this.window);
    this.endWindow();
  }

  private endWindow(): void {
    this.window = undefined;
    this.written = 0;
    if (this.held.size === 0) return;
    const clients = [...this.held].sort((a, b) => b[1] - a[1]);
    const total = clients.reduce((sum, [, n]) => sum + n, 0);
    const named = clients.slice(0, NAMED).map(([client, n]) => `${client}: ${n}`);
    if (clients.length > NAMED) named.push(`${clients.length - NAMED} more clients`);
    this.held.clear();
    this.out(`${total} more refused in the last ${this.rate.windowMs / 1000} s (${named.join(', ')})`);
  }
}
