import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { UserError } from '../spec/errors.js';
import { addonPath } from '../adapters/ibverbs/native/index.js';
import { type GuestKernel, resolveKernel } from '../vm/kernel.js';
import { rvtcModule } from '../vm/rvtc.js';
import { guestNode } from '../vm/guest-snapshot.js';
import { runInVm, type VmRunResult } from '../vm/run.js';

/** The agent's port inside the guest; the host reaches it through a QEMU hostfwd on a free port. */
export const GUEST_AGENT_PORT = 7471;
export const TOKEN_FILE_NAME = 'agent-token';
export const STOP_FILE_NAME = 'agent-stop';
export const STATUS_FILE_NAME = 'agent-status';

export interface AgentInVmOptions {
  /** The adapter the agent serves: rxe (libibverbs) or kernel (the rvtc module, built and loaded in the guest). */
  adapter?: 'ibverbs' | 'kernel';
  /** The whole VM cycle, boot to power-off, fn included; QEMU is killed when it passes. */
  vmTimeoutMs?: number;
  /** How long the host waits for the agent to answer a health check after starting QEMU. */
  readyTimeoutMs?: number;
  /** Where the guest's stdout/stderr (the agent's log) go; the host's stderr by default. */
  log?: NodeJS.WritableStream;
  /** Progress lines on the host. */
  say?: (line: string) => void;
  /** The kernel to boot; the default kernel when not given. */
  kernel?: GuestKernel;
}

/** Boot, a full suite through gRPC under TCG, power-off: minutes; an hour means something hangs. */
const DEFAULT_VM_TIMEOUT_MS = 60 * 60 * 1000;
/** Boot is about 10 s and node starting the agent under TCG another 10-30 s. */
const DEFAULT_READY_TIMEOUT_MS = 3 * 60 * 1000;
const HEALTH_ATTEMPT_MS = 3000;
const HEALTH_PAUSE_MS = 1000;

/**
 * The guest side: the agent in the background, then wait for the stop file (or the agent's early
 * death), SIGTERM it, SIGKILL it if it has not gone within 20 s. An agent that died on its own
 * makes the guest exit non-zero; after the stop file the guest exits 0 and leaves the agent's own
 * status in the status file for the host to report (see withAgentInVm).
 */
const GUEST_SCRIPT = `
token="$1"; stop="$2"; port="$3"; statusfile="$4"; adapter="$5"; shift 5
"$@" agent --adapter "$adapter" --listen "0.0.0.0:$port" --token-file "$token" --quiet &
agent=$!
while [ ! -e "$stop" ]; do
  if ! kill -0 "$agent" 2>/dev/null; then
    wait "$agent"; status=$?
    echo "agent-in-vm: the agent exited on its own with status $status" >&2
    [ "$status" -eq 0 ] && status=1
    exit "$status"
  fi
  sleep 1
done
kill -TERM "$agent" 2>/dev/null
( sleep 20; kill -KILL "$agent" 2>/dev/null ) &
killer=$!
wait "$agent"; status=$?
kill "$killer" 2>/dev/null
echo "agent-in-vm: stop file seen; the agent exited with status $status" >&2
echo "$status" > "$statusfile"
exit 0
`;

/** A port free on the host's loopback right now (QEMU binds it a moment later). */
export function freeLocalPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolvePort(port) : reject(new Error('could not pick a free port'))));
    });
  });
}

/** One grpc.health.v1 Check: a real RPC, so QEMU accepting the TCP connection alone does not count. */
export function healthCheck(target: string, timeoutMs: number): Promise<string> {
  const check = healthService.Check;
  if (check === undefined) return Promise.reject(new Error('grpc-health-check has no Check method'));
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  return new Promise<string>((resolveStatus, reject) => {
    client.makeUnaryRequest(
      check.path,
      check.requestSerialize as (value: { service: string }) => Buffer,
      check.responseDeserialize as (bytes: Buffer) => { status: string },
      { service: '' },
      new grpc.Metadata(),
      { deadline: Date.now() + timeoutMs },
      (error, response) => (error === null && response !== undefined ? resolveStatus(String(response.status)) : reject(error ?? new Error('empty response'))),
    );
  }).finally(() => client.close());
}

/**
 * Boots the rxe VM with `rvt-conform agent --adapter ibverbs` listening on the guest's port 7471 behind
 * a random token, forwarded to a free port on the host's 127.0.0.1; waits until it answers a health
 * check, runs fn(target, tokenFile), then writes the stop file and waits for the VM to power off.
 * The token and stop files live in workDir, which the guest shares read-write.
 */
export async function withAgentInVm<T>(
  workDir: string,
  fn: (target: string, tokenFile: string) => Promise<T>,
  options: AgentInVmOptions = {},
): Promise<T> {
  const say = options.say ?? ((line: string) => process.stderr.write(`agent-in-vm: ${line}\n`));
  const dir = resolve(workDir);
  const adapter = options.adapter ?? 'ibverbs';
  if (adapter === 'ibverbs' && !existsSync(addonPath())) {
    throw new UserError('the native binding is not built, so the agent in the VM would have no rxe adapter', { hint: 'rvt-conform build-native (in a checkout: npm run build:native)' });
  }
  const kernel = options.kernel ?? resolveKernel();
  const modules = adapter === 'kernel' ? [await rvtcModule(kernel)] : [];
  const tokenFile = join(dir, TOKEN_FILE_NAME);
  const stopFile = join(dir, STOP_FILE_NAME);
  const statusFile = join(dir, STATUS_FILE_NAME);
  await rm(stopFile, { force: true });
  await rm(statusFile, { force: true });
  await writeFile(tokenFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  const hostPort = await freeLocalPort();
  const target = `127.0.0.1:${hostPort}`;
  // The agent and its per-client workers start from the guest's V8 snapshot, as the direct runs do.
  const node = await guestNode(kernel);
  const log = options.log ?? process.stderr;

  say(`booting the VM; the ${adapter} agent will be at ${target} (guest port ${GUEST_AGENT_PORT})`);
  let vmSettled = false;
  const vm: Promise<VmRunResult> = runInVm({
    command: ['/bin/sh', '-c', GUEST_SCRIPT, 'agent-in-vm', tokenFile, stopFile, String(GUEST_AGENT_PORT), statusFile, adapter, ...node.command],
    env: node.env,
    kernel,
    modules,
    workDir: dir,
    timeoutMs: options.vmTimeoutMs ?? DEFAULT_VM_TIMEOUT_MS,
    forwardPorts: [{ host: hostPort, guest: GUEST_AGENT_PORT }],
    stdout: log,
    stderr: log,
  }).finally(() => {
    vmSettled = true;
  });
  // Observed below; this keeps an early rejection from being reported as unhandled meanwhile.
  vm.catch(() => undefined);

  const stop = async (): Promise<VmRunResult> => {
    await writeFile(stopFile, 'stop\n');
    return vm;
  };

  try {
    await waitUntilServing(target, options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS, () => vmSettled, say);
  } catch (error) {
    // The VM's own result names the console log; a VM that stopped early usually says why.
    let consoleLog = 'unknown (the VM run failed)';
    let vmSaid = '';
    try {
      const ended = await stop();
      consoleLog = ended.consoleLogPath;
      vmSaid = `; the guest command exited with ${ended.exitCode}`;
    } catch (vmError) {
      vmSaid = `; the VM run failed: ${(vmError as Error).message}`;
      const hint = (vmError as { hint?: string }).hint;
      if (hint !== undefined) consoleLog = hint;
    }
    throw new UserError(`the agent in the rxe VM never answered a health check at ${target}: ${(error as Error).message}${vmSaid}`, {
      hint: `kernel console log: ${consoleLog}; the agent's own output went to the log stream`,
    });
  }

  let result: T;
  try {
    result = await fn(target, tokenFile);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  } finally {
    await rm(tokenFile, { force: true });
  }
  const ended = await stop();
  const agentStatus = (await readFile(statusFile, 'utf8').catch(() => 'unknown')).trim();
  await rm(stopFile, { force: true });
  await rm(statusFile, { force: true });
  say(`the VM powered off (guest status ${ended.exitCode}, ${(ended.durationMs / 1000).toFixed(1)} s with boot; console log ${ended.consoleLogPath})`);
  if (ended.exitCode !== 0) {
    throw new UserError(`the agent in the rxe VM died before it was asked to stop (guest status ${ended.exitCode})`, { hint: `kernel console log: ${ended.consoleLogPath}` });
  }
  if (agentStatus !== '0') {
    // Not fatal: fn has its result and the VM is gone with whatever the agent held. Seen: 143 when
    // the rxe worker was respawned during the run (its execa/signal-exit SIGTERM listener then
    // comes after the agent's once-listener and re-raises the signal before the agent closes).
    say(`warning: the agent did not stop cleanly on SIGTERM (its exit status ${agentStatus}; 143 = killed by SIGTERM before closing its sessions)`);
  }
  return result;
}

/** Health checks every second until SERVING, the VM stops, or the time runs out. */
async function waitUntilServing(target: string, timeoutMs: number, vmEnded: () => boolean, say: (line: string) => void): Promise<void> {
  const started = Date.now();
  let last = 'no attempt yet';
  let attempts = 0;
  while (Date.now() - started < timeoutMs) {
    if (vmEnded()) throw new Error(`the VM stopped before the agent answered (last attempt: ${last})`);
    attempts += 1;
    try {
      const status = await healthCheck(target, HEALTH_ATTEMPT_MS);
      if (status === 'SERVING') {
        say(`the agent answers at ${target} (after ${((Date.now() - started) / 1000).toFixed(1)} s, ${attempts} health checks)`);
        return;
      }
      last = `health status ${status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(HEALTH_PAUSE_MS);
  }
  throw new Error(`no SERVING answer within ${Math.round(timeoutMs / 1000)} s (${attempts} attempts; last: ${last})`);
}
