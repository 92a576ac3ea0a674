import type { Command } from 'commander';
import { clientCredentials } from '../../adapters/grpc/flags.js';
import type { AgentUsage } from '../../adapters/grpc/usage.js';

interface StatusFlags {
  target: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  tokenFile?: string;
  tlsServerName?: string;
  json: boolean;
}

const mib = (bytes: number) => `${(bytes / (1 << 20)).toFixed(1)} MiB`;

function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${s % 60}s` : `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

/** The operator's screen: the agent's totals against its limits, then one line per client. */
export function renderStatus(target: string, health: string, usage: AgentUsage): string {
  const { limits } = usage;
  const rows = [
    ['client', 'sessions', 'resources', 'memory', 'in flight', 'connections'],
    ...usage.clients.map((c) => [c.client, `${c.sessions}/${limits.maxSessionsPerClient}`, String(c.resources), mib(c.memory), String(c.callsInFlight), String(c.connections)]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  const table = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
  return [
    `agent at ${target}: ${health}, up ${duration(usage.uptimeMs)}`,
    `sessions ${usage.sessions}/${limits.maxSessions}, memory ${mib(usage.memory)} of ${mib(limits.maxAgentMemory)} (${mib(limits.maxClientMemory)} per client, ${mib(limits.maxSessionMemory)} per session), connections ${usage.connections}`,
    `per post at most ${limits.maxWrsPerPost} WRs; per session at most ${limits.maxResourcesPerSession} resources and ${limits.maxCallsInFlight} calls in flight`,
    ...(usage.clients.length === 0 ? ['no clients'] : table),
  ].join('\n');
}

/** `rvt-conform agent status`: health and the accounting of a running agent, for its operator. */
export function registerAgentStatusCommand(agent: Command): void {
  agent
    .command('status')
    .description('health and accounting of a running agent: sessions, resources, memory and connections per client')
    .requiredOption('--target <host:port>', 'where the agent listens', '127.0.0.1:7471')
    .option('--tls-ca <file>', "the CA that signed the agent's certificate")
    .option('--tls-cert <file>', "this client's certificate (an agent with --client-ca)")
    .option('--tls-key <file>', "this client's private key")
    .option('--token-file <file>', "the agent's bearer token")
    .option('--tls-server-name <name>', "the name to check in the agent's certificate, when --target's host is not in it (e.g. an agent reached by IP address)")
    .option('--json', 'print the accounting as JSON', false)
    .action(async (flags: StatusFlags) => {
      const credentials = clientCredentials(flags);
      // gRPC only now: it is most of the CLI's start-up cost
      const { agentStatus } = await import('../../adapters/grpc/usage-client.js');
      const { health, usage } = await agentStatus({ target: flags.target, ...credentials });
      process.stdout.write(flags.json ? `${JSON.stringify({ health, ...usage }, null, 2)}\n` : `${renderStatus(flags.target, health, usage)}\n`);
    });
}
