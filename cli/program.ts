import { Command, CommanderError } from 'commander';
import { TOOL_VERSION } from '../reports/version.js';
import { InfrastructureError, isUserError } from '../spec/errors.js';

type Register = (program: Command) => void;

/**
 * Each command's module, loaded only when that command runs: under the VM's emulated CPU every
 * module costs (the whole graph, gRPC included, took 11-14 s there for `--version`), and a
 * guest runs `run` or `agent`, never all of them.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  run: async () => (await import('./commands/run.js')).registerRunCommand,
  list: async () => (await import('./commands/list.js')).registerListCommand,
  compare: async () => (await import('./commands/compare.js')).registerCompareCommand,
  repro: async () => (await import('./commands/repro.js')).registerReproCommand,
  mutants: async () => (await import('./commands/mutants.js')).registerMutantsCommand,
  fuzz: async () => (await import('./commands/fuzz.js')).registerFuzzCommand,
  spec: async () => (await import('./commands/spec.js')).registerSpecCommands,
  agent: async () => (await import('./commands/agent.js')).registerAgentCommand,
  vm: async () => (await import('./commands/vm.js')).registerVmCommand,
  tiers: async () => (await import('./commands/tiers.js')).registerTiersCommand,
};

/** The named command alone when argv names one; every command for help, --version or a typo. */
async function program(argv: readonly string[]): Promise<Command> {
  const root = new Command('rvt-conform')
    .description('Conformance harness for the Linux RDMA verbs (rdmavt rvt_post_srq_recv and siblings)')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  const named = argv[2] === undefined ? undefined : COMMANDS[argv[2]];
  const loaders = named === undefined ? Object.values(COMMANDS) : [named];
  for (const register of await Promise.all(loaders.map((load) => load()))) register(root);
  for (const command of root.commands) command.exitOverride();
  return root;
}

/**
 * Runs one command line (argv as process.argv has it). Exit codes, in process.exitCode: 0 ok, 1 a
 * failed gate, 2 bad usage or input, or infrastructure (an agent) gone or unusable (message, no stack trace).
 */
export async function main(argv: string[]): Promise<void> {
  try {
    await (await program(argv)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (isUserError(error) || error instanceof InfrastructureError) {
      process.stderr.write(`rvt-conform: ${error.message}\n${error.hint ? `  ${error.hint}\n` : ''}`);
      process.exitCode = isUserError(error) && error.reason === 'timeout' ? 124 : 2;
      return;
    }
    throw error;
  }
}

