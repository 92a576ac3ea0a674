import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { AGENT_ALLOCATOR_ENV, allocatorEnvironment, garbageCollector, startsAgent } from '../../cli/agent-allocator.js';
import { CLI } from '../helpers.js';

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const rssOf = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
/** Running: its process exists and has not exited (a zombie its new parent has not reaped yet has). */
const running = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
};
const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((s) => s !== '').map(Number);

/** `rvt-conform agent` as a user starts it (no threshold set), once it listens: the first process, and the child that serves. */
async function startAgentProcess() {
  const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: undefined };
  const agent = execa(process.execPath, [CLI, 'agent', '--adapter', 'model', '--listen', '127.0.0.1:0', '--quiet'], { reject: false, env, extendEnv: false });
  let seen = '';
  agent.stderr.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
  });
  await vi.waitFor(() => expect(seen).toMatch(/ on 127\.0\.0\.1:\d+,/), { timeout: 20_000, interval: 50 });
  const pid = agent.pid as number;
  const [serving] = childrenOf(pid);
  if (serving === undefined) throw new Error('the agent serves from no child process');
  return { agent, pid, serving };
}

describe('the agent under glibc settings that give large blocks back', () => {
  it('runs again with a fixed mmap threshold and two arenas, unless it has a threshold (its re-execution, or the operator\'s)', () => {
    expect(allocatorEnvironment({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' });
    expect(allocatorEnvironment({ MALLOC_MMAP_THRESHOLD_: '131072' })).toBeUndefined();
    expect(allocatorEnvironment({ MALLOC_MMAP_THRESHOLD_: '1048576' })).toBeUndefined();
  });

  it('is what `agent` starts, not `agent status` nor any other command', () => {
    expect(startsAgent(['node', 'rvt-conform', 'agent', '--adapter', 'model'])).toBe(true);
    expect(startsAgent(['node', 'rvt-conform', 'agent'])).toBe(true);
    expect(startsAgent(['node', 'rvt-conform', 'agent', 'status', '--target', 'h:1'])).toBe(false);
    expect(startsAgent(['node', 'rvt-conform', 'run', '--adapter', 'grpc'])).toBe(false);
  });

  it('serves from a child that has them, which stops with it on SIGTERM, and its exit code is the child\'s', async () => {
    const { agent, pid, serving } = await startAgentProcess();
    const variables = Object.entries(AGENT_ALLOCATOR_ENV).map(([name, value]) => `${name}=${value}`);
    expect(environOf(serving)).toEqual(expect.arrayContaining(variables));
    expect(environOf(pid)).not.toContain(variables[0]);
    // the first process waits on a bare command line: none of the agent's modules loaded
    expect(rssOf(pid)).toBeLessThan(rssOf(serving));
    agent.kill('SIGTERM');
    const stopped = await agent;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toMatch(/stopping: closing every session/);
    expect(() => readFileSync(`/proc/${serving}/status`)).toThrow();
  });

  it('stops when the first process is killed with SIGKILL, which it cannot pass on: no agent is left serving, orphaned', async () => {
    const { agent, serving } = await startAgentProcess();
    agent.kill('SIGKILL');
    await agent;
    await vi.waitFor(() => expect(running(serving)).toBe(false), { timeout: 10_000, interval: 50 });
  });
});

describe('a bad command line for the agent', () => {
  it('exits 2 with the serving process\'s one clear line, passed on by the first', async () => {
    const r = await execa(process.execPath, [CLI, 'agent', '--listen', '0.0.0.0:7471'], { reject: false, env: { ...process.env, MALLOC_MMAP_THRESHOLD_: undefined }, extendEnv: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toMatch(/^rvt-conform: refusing to listen on 0\.0\.0\.0:7471 without a token or client certificates/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("the agent's garbage collector", () => {
  it('is V8\'s full collection, reachable without --expose-gc on the command line', () => {
    const collect = garbageCollector();
    expect(collect).toBeTypeOf('function');
    expect(() => collect()).not.toThrow();
  });
});
