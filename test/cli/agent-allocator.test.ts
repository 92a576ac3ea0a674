import { readFileSync } from 'node:fs';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { AGENT_ALLOCATOR_ENV, allocatorEnvironment } from '../../cli/agent-allocator.js';
import { CLI } from '../helpers.js';

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter((s) => s !== '').map(Number);

describe('the agent under glibc settings that give large blocks back', () => {
  it('runs again with a fixed mmap threshold, unless it has one (its re-execution, or the operator\'s)', () => {
    expect(allocatorEnvironment({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(allocatorEnvironment({ MALLOC_MMAP_THRESHOLD_: '131072' })).toBeUndefined();
    expect(allocatorEnvironment({ MALLOC_MMAP_THRESHOLD_: '1048576' })).toBeUndefined();
  });

  it('serves from a child that has them, which stops with it on SIGTERM, and its exit code is the child\'s', async () => {
    const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: undefined };
    const agent = execa(process.execPath, [CLI, 'agent', '--adapter', 'model', '--listen', '127.0.0.1:0', '--quiet'], { reject: false, env, extendEnv: false });
    let seen = '';
    agent.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
    });
    await vi.waitFor(() => expect(seen).toMatch(/ on 127\.0\.0\.1:\d+,/), { timeout: 20_000, interval: 50 });
    const pid = agent.pid as number;
    const [serving] = childrenOf(pid);
    expect(serving).toBeDefined();
    const variable = `MALLOC_MMAP_THRESHOLD_=${AGENT_ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_}`;
    expect(environOf(serving as number)).toContain(variable);
    expect(environOf(pid)).not.toContain(variable);
    agent.kill('SIGTERM');
    const stopped = await agent;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toMatch(/stopping: closing every session/);
    expect(() => readFileSync(`/proc/${serving}/status`)).toThrow();
  });
});
