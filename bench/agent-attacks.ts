import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_REFUSAL_RATE } from '../adapters/grpc/refusal-log.js';
import { emit, type Figure } from './measure.js';
import { connectFrom, grpcFrame, handleOf, HEALTH_CHECK, openStream, RawSession, streamStatus } from './raw-grpc.js';

/**
 * Issue 42's first target: the agent's memory stays within its configured budgets (plus a fixed
 * overhead) under each attack the issue lists, and an honest client's verdicts do not change. The
 * agent runs as deployed (`rvt-conform agent --adapter model`, a token, small budgets) in a process
 * of its own; its RSS is read from /proc every 100 ms while each attack runs for ATTACK_MS, an
 * honest `rvt-conform run --adapter grpc` runs the shared suite through it meanwhile, and the
 * statuses must equal a local model run's. Exits 1 when an attack takes the agent over budget +
 * overhead, or an honest run differs.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const COMMAND = 'npm run bench:agent-attacks';
const MiB = 1 << 20;
const ATTACK_MS = 15_000;
/** After an attack: how long the agent has to give its memory back before it is read. */
const SETTLE_MS = 5_000;

/**
 * Small, so that an attack reaches them within seconds; the session and client budgets still fit
 * every shared case, and the client budget one ReadMr at the 16 MiB limit (96 MiB: three copies
 * of its 32 MiB of hex, service.ts ANSWER_COPIES), the agent's one for each of attack 3's two clients.
 */
const BUDGET = { sessionMemory: 32 * MiB, clientMemory: 96 * MiB, agentMemory: 192 * MiB };
/**
 * What clients may make the agent hold by its configuration: resources up to --max-agent-memory,
 * and answers waiting for clients that do not read them with the WriteMr requests being served,
 * apart, up to --max-agent-memory again (adapters/grpc/connections.ts).
 */
const BUDGET_BYTES = 2 * BUDGET.agentMemory;

/** A process and its descendants, from /proc: the agent runs itself again under its allocator's settings (cli/agent-allocator.ts). */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((s) => s !== '').map(Number);
  } catch {
    // it has exited meanwhile
  }
  return [pid, ...children.flatMap(processTree)];
}

/** The agent's memory, from /proc, its processes' summed: resident now, and the peak since the last reset. */
class Memory {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => {
      this.max = Math.max(this.max, this.read().rss);
    }, 100);
  }

  read(): { rss: number; hwm: number } {
    const sum = { rss: 0, hwm: 0 };
    for (const pid of processTree(this.pid)) {
      let status = '';
      try {
        status = readFileSync(`/proc/${pid}/status`, 'utf8');
      } catch {
        continue;
      }
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
      sum.rss += kb('VmRSS');
      sum.hwm += kb('VmHWM');
    }
    return sum;
  }

  /** Starts a new peak: the sampled one, and the kernel's VmHWM (reset by writing 5 to clear_refs). */
  resetPeak(): void {
    for (const pid of processTree(this.pid)) writeFileSync(`/proc/${pid}/clear_refs`, '5');
    this.max = this.read().rss;
  }

  /** The peak since resetPeak: the larger of the samples and the processes' VmHWM summed (each sees between samples; their sum is at least the peak of the sum, so the bound is checked on the safe side). */
  peak(): number {
    return Math.max(this.max, this.read().hwm);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

interface AgentProcess {
  address: string;
  pid: number;
  /** Every line the agent has written on stderr so far. */
  lines: string[];
  stop(): Promise<void>;
}

async function startAgent(tokenFile: string): Promise<AgentProcess> {
  const args = [CLI, 'agent', '--adapter', 'model', '--listen', '127.0.0.1:0', '--token-file', tokenFile, '--quiet'];
  args.push('--max-session-memory', String(BUDGET.sessionMemory), '--max-client-memory', String(BUDGET.clientMemory), '--max-agent-memory', String(BUDGET.agentMemory));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: string[] = [];
  let partial = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts);
      const match = / on (127\.0\.0\.1:\d+),/.exec(text);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`the agent exited: ${lines.join('\n')}`)));
  });
  return {
    address,
    pid: child.pid ?? 0,
    lines,
    stop: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

interface SuiteRun {
  statuses: Map<string, string>;
  exitCode: number;
  ms: number;
}

/** `rvt-conform run` as a user runs it, every case's status from its results.json. */
function suiteRun(adapterArgs: string[]): Promise<SuiteRun> {
  const out = join(mkdtempSync(join(tmpdir(), 'rvt-attack-')), 'report');
  const args = [CLI, 'run', ...adapterArgs, '--expectations', join(ROOT, 'expectations/model.yaml'), '--quiet', '--format', 'json', '--out', out];
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      let statuses = new Map<string, string>();
      try {
        const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { cases: { id: string; status: string }[] };
        statuses = new Map(results.cases.map((c) => [c.id, c.status]));
      } catch {
        // no report: the run failed before writing it, and its statuses are none
      }
      resolve({ statuses, exitCode, ms: Math.round(performance.now() - started) });
    });
  });
}

/** Cases whose status differs from the local run's (or that are missing from either). */
function differences(local: Map<string, string>, remote: Map<string, string>): string[] {
  const ids = new Set([...local.keys(), ...remote.keys()]);
  return [...ids].filter((id) => local.get(id) !== remote.get(id)).map((id) => `${id}: ${local.get(id) ?? 'missing'} locally, ${remote.get(id) ?? 'missing'} through the agent`);
}

/** What an attack's clients saw, by kind: the bench's evidence that it reached the agent. */
type Tally = Map<string, number>;
const bump = (tally: Tally, key: string, by = 1) => tally.set(key, (tally.get(key) ?? 0) + by);

interface AttackContext {
  target: string;
  token: string;
  /** True once the attack's time is up: its clients stop and close. */
  over(): boolean;
  tally: Tally;
}

/** When the connection has closed (events.once would reject on the error a reset connection emits first). */
const closedOf = (conn: ClientHttp2Session) => new Promise<void>((resolve) => conn.once('close', resolve));

/** `slots` clients from `localAddress`, each on a connection of its own, again and again (a new connection when the agent closes one) until the attack is over. */
async function connections(ctx: AttackContext, localAddress: string, slots: number, body: (conn: ClientHttp2Session) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: slots }, async () => {
      while (!ctx.over()) {
        let conn: ClientHttp2Session;
        try {
          conn = await connectFrom(ctx.target, localAddress);
        } catch {
          bump(ctx.tally, 'connection failed');
          await sleep(100);
          continue;
        }
        const closed = closedOf(conn).then(() => bump(ctx.tally, 'connection closed'));
        // whatever a body still waits for when the time is up ends with its connection
        await untilOver(
          ctx,
          body(conn).catch((error: unknown) => bump(ctx.tally, `bench error: ${error instanceof Error ? error.message : String(error)}`)),
        );
        conn.destroy();
        await closed;
        await sleep(50);
      }
    }),
  );
}

/** Resolves when the attack is over or `p` settles, whichever is first. */
async function untilOver<T>(ctx: AttackContext, p: Promise<T>): Promise<void> {
  let done = false;
  void p.finally(() => {
    done = true;
  });
  while (!done && !ctx.over()) await sleep(100);
}

/** A session stream opened with the token: its pd, or undefined (the agent refused the session). */
async function openWithPd(conn: ClientHttp2Session, ctx: AttackContext): Promise<{ s: RawSession; pd: number } | undefined> {
  const s = RawSession.open(conn, ctx.token);
  const opened = await s.opened;
  if (opened.kind !== 'opened') {
    bump(ctx.tally, `session refused (${opened.kind === 'error' ? opened.code : '?'})`);
    return undefined;
  }
  const pd = handleOf(await s.call('allocPd', {}), 'pd');
  return pd === undefined ? undefined : { s, pd };
}

const READ_BYTES = 4 * MiB;

/**
 * Item 1: clients that ask for large reads and never read the answers: 6 connections from each
 * of 3 addresses (the issue's 6 from one, and enough addresses to reach the agent's whole budget),
 * each a session with a 4 MiB MR and 64 ReadMr of all of it written at once, 512 MiB of hex
 * answers per connection if nothing bounded them.
 */
async function unreadAnswers(ctx: AttackContext): Promise<void> {
  await Promise.all(
    ['127.0.0.10', '127.0.0.11', '127.0.0.12'].map((from) =>
      connections(ctx, from, 6, async (conn) => {
        const opened = await openWithPd(conn, ctx);
        if (opened === undefined) return;
        const { s, pd } = opened;
        const mr = handleOf(await s.call('regMr', { pd, length: READ_BYTES, access: ['LOCAL_WRITE'] }), 'mr');
        if (mr === undefined) return void bump(ctx.tally, 'regMr refused');
        s.stopReading();
        for (let i = 0; i < 64; i++) s.send('readMr', { mr, offset: 0, length: READ_BYTES });
        bump(ctx.tally, 'ReadMr written, never read', 64);
        await untilOver(ctx, s.status);
      }),
    ),
  );
}

/**
 * Item 2: connection slots held without credentials: 32 connections from each of 127.0.0.2..9
 * (256, the agent's limit), each making a health check and a Session call without the token and
 * then holding its connection, reconnecting whenever the agent closes it.
 */
async function slotsWithoutCredentials(ctx: AttackContext): Promise<void> {
  await Promise.all(
    [2, 3, 4, 5, 6, 7, 8, 9].map((n) =>
      connections(ctx, `127.0.0.${n}`, 32, async (conn) => {
        const health = openStream(conn, HEALTH_CHECK);
        health.end(grpcFrame(Buffer.alloc(0)));
        bump(ctx.tally, `health check ${await streamStatus(health)}`);
        const s = RawSession.open(conn, undefined);
        bump(ctx.tally, `session without token ${await s.status}`);
        await untilOver(ctx, closedOf(conn));
      }),
    ),
  );
}

const LIMIT_BYTES = 16 * MiB;

/**
 * Item 3: WriteMr and ReadMr at the 16 MiB limit in a loop, answers read and compared: a session
 * from each of 2 addresses, each with a 16 MiB MR (32 MiB of hex each way per call). No more: a
 * ReadMr at the limit holds 96 MiB of its client's budget while its answer is built (the hex, its
 * encoding and its framed copy), the bench's whole client budget, and two of them the agent's.
 */
async function atTheLimit(ctx: AttackContext): Promise<void> {
  const data = Buffer.alloc(LIMIT_BYTES, 0xa5).toString('hex');
  await Promise.all(
    ['127.0.0.13', '127.0.0.14'].map((from) =>
      connections(ctx, from, 1, async (conn) => {
        const opened = await openWithPd(conn, ctx);
        if (opened === undefined) return;
        const { s, pd } = opened;
        const mr = handleOf(await s.call('regMr', { pd, length: LIMIT_BYTES, access: ['LOCAL_WRITE'] }), 'mr');
        if (mr === undefined) return void bump(ctx.tally, 'regMr refused');
        while (!ctx.over()) {
          const written = await s.call('writeMr', { mr, offset: 0, data });
          const read = await s.call('readMr', { mr, offset: 0, length: LIMIT_BYTES });
          const ok = written.kind === 'result' && read.kind === 'result' && (read.result as { data: string }).data === data;
          bump(ctx.tally, ok ? '16 MiB write+read ok' : `16 MiB write+read failed: ${JSON.stringify(read.kind === 'error' ? read : written).slice(0, 120)}`);
          if (!ok) break;
        }
      }),
    ),
  );
}

/**
 * Items 4 and 5: malformed and refused streams in a flood, from 3 addresses: messages that are not
 * protobuf (INVALID_ARGUMENT), streams without the token (UNAUTHENTICATED), and more sessions
 * than one client may hold (RESOURCE_EXHAUSTED, a refusal the agent logs): the log must stay at
 * its bounded rate.
 */
async function malformedFlood(ctx: AttackContext): Promise<void> {
  await Promise.all(
    ['127.0.0.15', '127.0.0.16', '127.0.0.17'].map((from) =>
      connections(ctx, from, 2, async (conn) => {
        for (let round = 0; round < 10 && !ctx.over(); round++) {
          const garbage = RawSession.open(conn, ctx.token);
          garbage.stream.write(grpcFrame(Buffer.alloc(64, 0xff)));
          const noToken = RawSession.open(conn, undefined);
          const many = Array.from({ length: 20 }, () => RawSession.open(conn, ctx.token));
          await Promise.all(many.map((m) => m.opened));
          for (const m of many) m.stream.end();
          garbage.stream.end();
          noToken.stream.end();
          const ends = [
            ...many.map((m) => m.status.then((status) => bump(ctx.tally, `20 sessions at once: ${status}`))),
            garbage.status.then((status) => bump(ctx.tally, `not protobuf: ${status}`)),
            noToken.status.then((status) => bump(ctx.tally, `no token: ${status}`)),
          ];
          await Promise.all(ends);
        }
      }),
    ),
  );
}

/**
 * The rest of what reaches an agent at run time (the first round's probes): streams opened with the
 * token and never sent on (held up to HTTP/2's stream limit), and SRQs filled to the session budget
 * by posts of 1024 WRs (the model holds every WR it is posted).
 */
async function heldStreamsAndFullQueues(ctx: AttackContext): Promise<void> {
  const held = connections(ctx, '127.0.0.18', 8, async (conn) => {
    const streams = Array.from({ length: 300 }, () => openStream(conn, '/rvtconform.v1.Agent/QueryDevice', ctx.token));
    bump(ctx.tally, 'streams opened, nothing sent', streams.length);
    await untilOver(ctx, closedOf(conn));
  });
  const wrs = Array.from({ length: 1024 }, (_, i) => ({ wr_id: BigInt(i), sg_list: [{ addr: 0n, length: 64, lkey: 0 }] }));
  const full = connections(ctx, '127.0.0.19', 4, async (conn) => {
    const opened = await openWithPd(conn, ctx);
    if (opened === undefined) return;
    const { s, pd } = opened;
    for (;;) {
      const srq = handleOf(await s.call('createSrq', { pd, attr: { max_wr: 0x1ffff, max_sge: 1, srq_limit: 0 } }), 'srq');
      if (srq === undefined) break;
      for (let posted = 0; posted < 0x1ffff && !ctx.over(); posted += wrs.length) {
        const answer = await s.call('postSrqRecv', { srq, wrs });
        if (answer.kind !== 'result') break;
        bump(ctx.tally, 'WRs posted', wrs.length);
      }
    }
    bump(ctx.tally, 'createSrq refused over the session budget');
    await untilOver(ctx, s.status);
  });
  await Promise.all([held, full]);
}

const ATTACKS: { name: string; run: (ctx: AttackContext) => Promise<void> }[] = [
  { name: 'ReadMr answers never read (item 1)', run: unreadAnswers },
  { name: 'connection slots held without credentials (item 2)', run: slotsWithoutCredentials },
  { name: 'WriteMr/ReadMr at the 16 MiB limit in a loop (item 3)', run: atTheLimit },
  { name: 'malformed and refused streams in a flood (items 4, 5)', run: malformedFlood },
  { name: 'streams held without a message, SRQs filled by posts (first round)', run: heldStreamsAndFullQueues },
];

/** The refusal log's bound over `ms`: its lines per window and one summary per window, for every window the time touches. */
const logBound = (ms: number) => (Math.ceil(ms / DEFAULT_REFUSAL_RATE.windowMs) + 1) * (DEFAULT_REFUSAL_RATE.lines + 1);

const mb = (bytes: number) => Math.round(bytes / MiB);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-attack-'));
  const token = 'bench-token-0123456789abcdef';
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const local = await suiteRun(['--adapter', 'model']);
  const agent = await startAgent(tokenFile);
  const memory = new Memory(agent.pid);
  const figures: Figure[] = [];
  let broken = false;
  try {
    await sleep(1000);
    const startup = memory.read().rss;
    const honestArgs = ['--adapter', 'grpc', '--target', agent.address, '--token-file', tokenFile];
    // one honest run first: the agent's working set for serving a client is part of its fixed overhead
    const warm = await suiteRun(honestArgs);
    await sleep(SETTLE_MS);
    const overhead = memory.read().rss;
    const limit = overhead + BUDGET_BYTES;
    const warmDiff = differences(local.statuses, warm.statuses);
    figures.push(
      { name: 'agent attacks: budgets (--max-session-memory / --max-client-memory / --max-agent-memory)', value: mb(BUDGET.agentMemory), unit: `MiB agent (${mb(BUDGET.sessionMemory)} session, ${mb(BUDGET.clientMemory)} client)`, command: COMMAND },
      { name: 'agent attacks: RSS of the idle agent after startup', value: mb(startup), unit: 'MiB', command: COMMAND },
      { name: 'agent attacks: fixed overhead (RSS idle after one honest suite run)', value: mb(overhead), unit: 'MiB', command: COMMAND },
      { name: 'agent attacks: bound = overhead + resources and unsent answers (2 x --max-agent-memory)', value: mb(limit), unit: 'MiB', command: COMMAND },
      { name: 'agent attacks: honest run without attack, statuses equal to the local model run', value: local.statuses.size - warmDiff.length, unit: `of ${local.statuses.size}`, target: { text: 'all', met: warmDiff.length === 0 && warm.exitCode === local.exitCode }, command: COMMAND },
    );
    broken ||= warmDiff.length > 0;
    // ONLY=1,3 runs those attacks alone (by their place in ATTACKS), to look into one
    for (const attack of ATTACKS.filter((_, i) => process.env.ONLY === undefined || process.env.ONLY.split(',').includes(String(i + 1)))) {
      memory.resetPeak();
      const linesBefore = agent.lines.length;
      const started = performance.now();
      const ctx: AttackContext = { target: agent.address, token, over: () => performance.now() - started > ATTACK_MS, tally: new Map() };
      const running = attack.run(ctx);
      await sleep(2000);
      const honest = await suiteRun(honestArgs);
      await running;
      const peak = memory.peak();
      const attackMs = performance.now() - started;
      await sleep(SETTLE_MS);
      const after = memory.read().rss;
      const logLines = agent.lines.length - linesBefore;
      const diff = differences(local.statuses, honest.statuses);
      const within = peak <= limit;
      const logBounded = logLines <= logBound(attackMs + SETTLE_MS);
      broken ||= !within || diff.length > 0 || honest.exitCode !== local.exitCode || !logBounded;
      const name = `agent attacks: ${attack.name}`;
      figures.push(
        { name: `${name}: peak RSS`, value: mb(peak), unit: 'MiB', target: { text: `<= ${mb(limit)} MiB (overhead + budget)`, met: within }, command: COMMAND },
        { name: `${name}: RSS ${SETTLE_MS / 1000} s after`, value: mb(after), unit: 'MiB', command: COMMAND },
        { name: `${name}: honest run's statuses equal to the local run's (exit ${honest.exitCode}, ${(honest.ms / 1000).toFixed(1)} s)`, value: local.statuses.size - diff.length, unit: `of ${local.statuses.size}`, target: { text: 'all', met: diff.length === 0 && honest.exitCode === local.exitCode }, command: COMMAND },
        { name: `${name}: agent log lines`, value: logLines, unit: 'lines', target: { text: `<= ${logBound(attackMs + SETTLE_MS)} (refusal log rate)`, met: logBounded }, command: COMMAND },
      );
      process.stderr.write(`${attack.name}: peak ${mb(peak)} MiB (limit ${mb(limit)}), after ${mb(after)} MiB, honest ${diff.length === 0 ? 'same' : `DIFFERS (${diff.slice(0, 3).join('; ')})`} exit ${honest.exitCode}, log ${logLines} lines\n`);
      for (const [kind, n] of ctx.tally) process.stderr.write(`  ${kind}: ${n}\n`);
      for (const line of agent.lines.slice(linesBefore, linesBefore + 3)) process.stderr.write(`  log: ${line}\n`);
    }
  } finally {
    memory.stop();
    await agent.stop();
  }
  emit('agent-attacks', figures);
  if (broken) process.exitCode = 1;
}

await main();
