import type { Command } from 'commander';
import { readCertificate, readKeyPair, readToken } from '../../adapters/grpc/credential-files.js';
import { type Agent, startAgent, type TlsFiles } from '../../adapters/grpc/server.js';
import { DEFAULT_LIMITS, type HostLimits } from '../../adapters/remote/budget.js';
import { createAdapter } from '../../adapters/registry.js';
import { garbageCollector } from '../agent-allocator.js';
import { withConfig } from '../config-file.js';
import { addAdapterOptions, adapterOptionsOf } from '../adapters.js';
import { registerAgentStatusCommand } from './agent-status.js';
import { UserError } from '../../spec/errors.js';
import { agentCases } from '../../suites/case-worker.js';
import { parsePositiveInt } from '../options.js';

interface AgentFlags {
  adapter: string;
  device?: string;
  adapterOption?: Record<string, string>;
  listen: string;
  tlsCert?: string;
  tlsKey?: string;
  clientCa?: string;
  tokenFile?: string;
  insecure: boolean;
  maxSessions: number;
  maxSessionsPerClient: number;
  maxResources: number;
  maxQueueDepth: number;
  maxMrBytes: number;
  maxWrsPerPost: number;
  maxCallsInFlight: number;
  maxSessionMemory: number;
  maxClientMemory: number;
  maxAgentMemory: number;
  quiet: boolean;
}

const say = (line: string) => process.stderr.write(`rvt-conform agent: ${line}\n`);

function tlsOf(flags: AgentFlags): TlsFiles | undefined {
  const pair = readKeyPair(flags.tlsCert, flags.tlsKey, (line) => say(`warning: ${line}`));
  if (flags.clientCa === undefined) return pair;
  if (pair === undefined) throw new UserError('--client-ca checks client certificates over TLS, which needs --tls-cert and --tls-key', { hint: 'add the agent\'s own --tls-cert FILE --tls-key FILE' });
  return { ...pair, clientCa: readCertificate('--client-ca', flags.clientCa, (line) => say(`warning: ${line}`)).pem };
}

const limitsOf = (flags: AgentFlags): HostLimits => ({
  maxSessions: flags.maxSessions,
  maxSessionsPerClient: flags.maxSessionsPerClient,
  maxResourcesPerSession: flags.maxResources,
  maxQueueDepth: flags.maxQueueDepth,
  maxMrBytes: flags.maxMrBytes,
  maxWrsPerPost: flags.maxWrsPerPost,
  maxCallsInFlight: flags.maxCallsInFlight,
  maxSessionMemory: flags.maxSessionMemory,
  maxClientMemory: flags.maxClientMemory,
  maxAgentMemory: flags.maxAgentMemory,
});

function guards(flags: AgentFlags): string {
  const tls = flags.clientCa !== undefined ? 'mutual TLS' : flags.tlsCert !== undefined ? 'TLS' : 'no TLS';
  return `${tls}, ${flags.tokenFile !== undefined ? 'token required' : 'no token'}`;
}

/** Until Ctrl-C or a service manager's SIGTERM: both are the normal way to stop an agent. */
function stopRequested(): Promise<void> {
  return new Promise((resolve) => {
    // `on`, not `once`: a one-time listener removes itself before execa's signal-exit (loaded
    // again when the rxe worker restarts) runs, which then re-raises SIGTERM and kills the agent
    // before it has closed its sessions.
    const stop = () => resolve();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Serves a local adapter to remote `rvt-conform run --adapter grpc` clients until stopped. */
export async function agentCommand(flags: AgentFlags): Promise<void> {
  const tls = tlsOf(flags);
  const token = flags.tokenFile === undefined ? undefined : readToken('--token-file', flags.tokenFile);
  const adapter = await createAdapter(flags.adapter, adapterOptionsOf({ device: flags.device, adapterOption: flags.adapterOption }));
  let agent: Agent;
  try {
    const info = await adapter.info();
    const cases = agentCases(adapter);
    agent = await startAgent({ adapter, listen: flags.listen, limits: limitsOf(flags), tls, token, insecure: flags.insecure, log: flags.quiet ? undefined : say, notice: say, cases, collectGarbage: garbageCollector() });
    say(`serving ${info.adapter} (${info.implementation}; device ${info.device.name}) on ${agent.address}, ${guards(flags)}`);
  } catch (error) {
    await adapter.dispose();
    throw error;
  }
  await stopRequested();
  say('stopping: closing every session');
  await agent.close();
}

export function registerAgentCommand(program: Command): void {
  const agent = program
    .command('agent')
    .description('serve a local adapter over gRPC, for `run --adapter grpc --target HOST:PORT` on another machine')
    // `agent status --token-file F`: without this, `agent` took the flags its status shares with it, and status never saw them
    .enablePositionalOptions();
  // Only --device: the agent's own --tls-cert, --tls-key and --token-file are the server's, not a client's.
  addAdapterOptions(withConfig(agent), 'the implementation to serve', ['device'])
    .option('--listen <host:port>', 'where to listen; anything but loopback needs a token or client certificates (or --insecure)', '127.0.0.1:7471')
    .option('--tls-cert <file>', "the agent's certificate (PEM); with --tls-key, serve over TLS")
    .option('--tls-key <file>', "the agent's private key (PEM)")
    .option('--client-ca <file>', 'require client certificates signed by this CA (mutual TLS)')
    .option('--token-file <file>', 'require this bearer token (the file holds it on one line)')
    .option('--insecure', 'allow a non-loopback --listen without token or client certificates (a trusted network only)', false)
    .option('--max-sessions <n>', 'sessions open at once, all clients together', parsePositiveInt, DEFAULT_LIMITS.maxSessions)
    .option('--max-sessions-per-client <n>', 'sessions open at once from one client address', parsePositiveInt, DEFAULT_LIMITS.maxSessionsPerClient)
    .option('--max-resources <n>', 'resources (PD, MR, CQ, SRQ, QP) one session may hold', parsePositiveInt, DEFAULT_LIMITS.maxResourcesPerSession)
    .option('--max-queue-depth <n>', 'deepest CQ, SRQ or QP queue a client may ask for', parsePositiveInt, DEFAULT_LIMITS.maxQueueDepth)
    .option('--max-mr-bytes <n>', 'largest MR a client may register (bytes)', parsePositiveInt, DEFAULT_LIMITS.maxMrBytes)
    .option('--max-wrs-per-post <n>', 'work requests in one post', parsePositiveInt, DEFAULT_LIMITS.maxWrsPerPost)
    .option('--max-calls-in-flight <n>', 'calls of one session in progress at once', parsePositiveInt, DEFAULT_LIMITS.maxCallsInFlight)
    .option('--max-session-memory <bytes>', "memory one session's queues and MRs may hold (docs/vendor-lab.md: the cost model)", parsePositiveInt, DEFAULT_LIMITS.maxSessionMemory)
    .option('--max-client-memory <bytes>', "memory all of one client address's sessions may hold together", parsePositiveInt, DEFAULT_LIMITS.maxClientMemory)
    .option('--max-agent-memory <bytes>', "memory all sessions' queues and MRs may hold together", parsePositiveInt, DEFAULT_LIMITS.maxAgentMemory)
    .option('-q, --quiet', 'no log line per call', false)
    .action(async (flags: AgentFlags) => {
      await agentCommand(flags);
    });
  registerAgentStatusCommand(agent);
}
