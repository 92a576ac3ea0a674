#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { TOOL_VERSION } from '../reports/version.js';
import { registerAgentCommand } from './commands/agent.js';
import { registerCompareCommand } from './commands/compare.js';
import { registerFuzzCommand } from './commands/fuzz.js';
import { registerListCommand } from './commands/list.js';
import { registerMutantsCommand } from './commands/mutants.js';
import { registerReproCommand } from './commands/repro.js';
import { registerRunCommand } from './commands/run.js';
import { registerSpecCommands } from './commands/spec.js';
import { registerVmCommand } from '../adapters/rxe/vm/cli.js';
import { isUserError } from './errors.js';

function program(): Command {
  const root = new Command('rvt-conform')
    .description('Conformance harness for the Linux RDMA verbs (rdmavt rvt_post_srq_recv and siblings)')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  registerRunCommand(root);
  registerListCommand(root);
  registerCompareCommand(root);
  registerReproCommand(root);
  registerMutantsCommand(root);
  registerFuzzCommand(root);
  registerSpecCommands(root);
  registerAgentCommand(root);
  registerVmCommand(root);
  for (const command of root.commands) command.exitOverride();
  return root;
}

/** Exit codes: 0 ok, 1 a failed gate, 2 bad usage or input (message, no stack trace). */
async function main(argv: string[]): Promise<void> {
  try {
    await program().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (isUserError(error)) {
      process.stderr.write(`rvt-conform: ${error.message}\n${error.hint ? `  ${error.hint}\n` : ''}`);
      process.exitCode = error.exitCode;
      return;
    }
    throw error;
  }
}

await main(process.argv);
