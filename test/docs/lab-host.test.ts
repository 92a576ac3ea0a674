import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { AGENT_ALLOCATOR_ENV } from '../../cli/agent-allocator.js';
import { registerAgentCommand } from '../../cli/commands/agent.js';
import { ROOT } from '../helpers.js';

const read = (path: string) => readFile(join(ROOT, path), 'utf8');
const UNIT = 'docs/examples/lab-host/rvt-conform-agent.service';
const UDEV = 'docs/examples/lab-host/90-rvt-conform-rdma.rules';

/** A unit file's settings (the last one of a key wins, as in systemd), continuation lines joined. */
function settings(unit: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of unit.replace(/\\\n\s*/g, ' ').split('\n')) {
    const setting = /^(\w+)=(.*)$/.exec(line.trim());
    if (setting?.[1] !== undefined) found.set(setting[1], setting[2] ?? '');
  }
  return found;
}

describe("the lab host's install (docs/vendor-lab.md)", () => {
  it('ships a systemd unit that runs the installed binary (not npx), with a command line the real agent command accepts', async () => {
    const unit = settings(await read(UNIT));
    const [binary, ...args] = (unit.get('ExecStart') ?? '').split(/\s+/);
    // SIGTERM to `npm exec` leaves the agent running: the unit runs the package's own bin
    expect(binary).toMatch(/^\/.*\/node_modules\/\.bin\/rvt-conform$/);
    expect(args[0]).toBe('agent');
    const program = new Command('rvt-conform').exitOverride();
    registerAgentCommand(program);
    const agent = program.commands.find((c) => c.name() === 'agent');
    let flags: Record<string, unknown> | undefined;
    agent?.exitOverride().action((parsed: Record<string, unknown>) => {
      flags = parsed;
    });
    await program.parseAsync(args, { from: 'user' });
    expect(flags).toMatchObject({ adapter: 'ibverbs', tlsCert: expect.any(String), tlsKey: expect.any(String), clientCa: expect.any(String), tokenFile: expect.any(String) });
    expect(unit.get('User')).toBe('rvt-conform');
    expect(unit.get('SupplementaryGroups')).toBe('rdma');
    expect(unit.get('LimitMEMLOCK')).toBe('infinity');
    expect(unit.get('KillSignal')).toBe('SIGTERM');
    expect(unit.get('StandardOutput')).toBe('journal');
    // the agent's allocator settings, so that it serves as one process, not re-executed as a child
    expect(Object.fromEntries((unit.get('Environment') ?? '').split(/\s+/).map((pair) => pair.split('=')))).toEqual(AGENT_ALLOCATOR_ENV);
  });

  it('ships the udev rule for the verbs device nodes, and the page walks through user, permissions, service and logs', async () => {
    expect(await read(UDEV)).toMatch(/^SUBSYSTEM=="infiniband_verbs", KERNEL=="uverbs\*", GROUP="rdma", MODE="0660"$/m);
    const page = await read('docs/vendor-lab.md');
    for (const step of ['useradd --system', 'rvt-conform build-native', UDEV.replace('docs/', ''), UNIT.replace('docs/', ''), 'systemctl enable --now rvt-conform-agent', 'journalctl -u rvt-conform-agent']) {
      expect(page, step).toContain(step);
    }
    expect(await read('README.md')).toContain('[docs/vendor-lab.md](docs/vendor-lab.md)');
  });
});
