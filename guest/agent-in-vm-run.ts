/**
 * `node dist/guest/agent-in-vm-run.js [--agent-adapter ibverbs|kernel] [--kernel K] [OUT] [-- RUN-FLAGS...]`:
 * the shared suite on rxe0 through the gRPC adapter, with the agent inside the VM serving the rxe
 * (libibverbs) or the kernel adapter (see agent-in-vm.ts). Writes the
 * client's reports into OUT (default conformance-report/rxe-grpc) and the agent's log (the guest's
 * stdout/stderr) into OUT/agent.log. Exits with the client run's status (0 gate passed, 1 gate
 * failed, 2 usage), or 2 with a message when the VM or the agent could not be brought up.
 * Run flags default to `--profile documented --expectations expectations/rxe.yaml --timeout 120`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { canonicalAdapter } from '../adapters/registry.js';
import { isUserError } from '../spec/errors.js';
import { withAgentInVm } from './agent-in-vm.js';
import { resolveKernel } from '../vm/kernel.js';
import { projectRoot } from '../vm/project-root.js';

const DEFAULT_RUN_FLAGS = ['--profile', 'documented', '--expectations', 'expectations/rxe.yaml', '--timeout', '120'];

function runClient(args: readonly string[]): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const child = spawn(process.execPath, [join(projectRoot(), 'dist/cli/main.js'), 'run', ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => resolveStatus(code ?? (signal === null ? 1 : 128 + 2)));
  });
}

async function main(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf('--');
  const positional = dash === -1 ? argv : argv.slice(0, dash);
  const runFlags = dash === -1 ? DEFAULT_RUN_FLAGS : argv.slice(dash + 1);
  const agentFlag = positional.indexOf('--agent-adapter');
  const adapter = agentFlag === -1 ? 'ibverbs' : canonicalAdapter(positional[agentFlag + 1] ?? '');
  if (adapter !== 'ibverbs' && adapter !== 'kernel') {
    process.stderr.write(`agent-in-vm: --agent-adapter takes rxe or kernel, not ${String(adapter)}\n`);
    return 2;
  }
  const kernelFlag = positional.indexOf('--kernel');
  const flagged = new Set([agentFlag, kernelFlag].filter((i) => i !== -1).flatMap((i) => [i, i + 1]));
  const rest = positional.filter((_, i) => !flagged.has(i));
  const out = resolve(rest[0] ?? 'conformance-report/rxe-grpc');
  await mkdir(out, { recursive: true });
  const agentLog = join(out, 'agent.log');
  const log = createWriteStream(agentLog);
  // The guest's /tmp is its own tmpfs, but a work directory under it is still shared.
  const workDir = await mkdtemp(join(tmpdir(), 'rvt-agent-vm-'));
  const started = performance.now();
  try {
    const kernel = kernelFlag === -1 ? undefined : resolveKernel(positional[kernelFlag + 1]);
    const status = await withAgentInVm(
      workDir,
      async (target, tokenFile) => {
        process.stderr.write(`agent-in-vm: running the suite through grpc://${target} into ${out}\n`);
        const clientStarted = performance.now();
        const code = await runClient(['--adapter', 'grpc', '--target', target, '--token-file', tokenFile, '--out', out, ...runFlags]);
        process.stderr.write(`agent-in-vm: the client run exited with ${code} after ${((performance.now() - clientStarted) / 1000).toFixed(1)} s\n`);
        return code;
      },
      { log, adapter, ...(kernel === undefined ? {} : { kernel }) },
    );
    process.stderr.write(`agent-in-vm: done in ${((performance.now() - started) / 1000).toFixed(1)} s (the agent's log: ${agentLog})\n`);
    return status;
  } catch (error) {
    if (!isUserError(error)) throw error;
    process.stderr.write(`agent-in-vm: ${error.message}\n${error.hint === undefined ? '' : `  ${error.hint}\n`}  the agent's log: ${agentLog}\n`);
    return 2;
  } finally {
    await new Promise<void>((done) => log.end(done));
    await rm(workDir, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv.slice(2));
