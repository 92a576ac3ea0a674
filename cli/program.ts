import { Command, CommanderError } from 'commander';
import { TOOL_VERSION } from '../reports/version.js';
import { InfrastructureError, isUserError } from '../spec/errors.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

type Register = (program: Command) => void;

/** A command as the top-level help lists it: its arguments and a line saying what it does; its module registers the rest. */
interface CommandEntry {
  readonly usage: string;
  readonly summary: string;
  readonly load: () => Promise<Register>;
}

/**
 * Each command's module, loaded only when that command runs: under the VM's emulated CPU every
 * module costs (the whole graph, gRPC included, took 11-14 s there for `--version`), and a
 * guest runs `run` or `agent`, never all of them. `--version` and the top-level help load none.
 */
const COMMANDS: Record<string, CommandEntry> = {
  run: { usage: '[options]', summary: 'run the shared suites against an adapter and write the reports', load: async () => (await import('./commands/run.js')).registerRunCommand },
  kselftest: { usage: '[options]', summary: 'run the suites as a kselftest: KTAP on stdout, exit 0 pass, 1 fail, 4 skip (kernel CI)', load: async () => (await import('./commands/kselftest.js')).registerKselftestCommand },
  list: { usage: '[options]', summary: 'list the shared cases and the clauses they check', load: async () => (await import('./commands/list.js')).registerListCommand },
  compare: { usage: '[options] <results...>', summary: 'compare results.json files: a clause matrix, regressions and fixes', load: async () => (await import('./commands/compare.js')).registerCompareCommand },
  expectations: { usage: '[options] [command]', summary: 'draft an expectations file from a run (draft --from results.json), or update one', load: async () => (await import('./commands/expectations.js')).registerExpectationsCommand },
  hostile: { usage: '[options]', summary: "write outside the contract into rdmavt's shared receive rings from user space (in the VM); fail on a kernel splat or hang", load: async () => (await import('./commands/hostile.js')).registerHostileCommand },
  findings: { usage: '[options] <results...>', summary: 'the defects a set of runs shows, merged and ranked, each with a reproducer and a draft report', load: async () => (await import('./commands/findings.js')).registerFindingsCommand },
  repro: { usage: '[options] <case>', summary: "write a standalone reproducer (a libibverbs program, or a kernel module) that replays a case's calls", load: async () => (await import('./commands/repro.js')).registerReproCommand },
  mutants: { usage: '[options]', summary: 'run the suites against mutants (plausible driver bugs): which cases kill each', load: async () => (await import('./commands/mutants.js')).registerMutantsCommand },
  fuzz: { usage: '[options]', summary: 'differential fuzzing of an adapter against the reference model', load: async () => (await import('./commands/fuzz.js')).registerFuzzCommand },
  spec: { usage: '[command]', summary: 'the kernel-doc spec: import it, check a kernel for drift, show coverage', load: async () => (await import('./commands/spec.js')).registerSpecCommands },
  agent: { usage: '[options] [command]', summary: 'serve a local adapter over gRPC to `run --adapter grpc` elsewhere', load: async () => (await import('./commands/agent.js')).registerAgentCommand },
  vm: { usage: '[options] <command...>', summary: 'run a command in a QEMU VM that has the Soft-RoCE device rxe0', load: async () => (await import('./commands/vm.js')).registerVmCommand },
  tiers: { usage: '[options] <file>', summary: 'run several device tiers of the suite in one VM boot', load: async () => (await import('./commands/tiers.js')).registerTiersCommand },
  'build-native': { usage: '[options]', summary: 'build the native libibverbs addon that --adapter ibverbs uses', load: async () => (await import('./commands/build-native.js')).registerBuildNativeCommand },
};

/** The named command's module when argv names one; for help, --version or a typo, each command by its name and summary alone. */
async function program(argv: readonly string[]): Promise<Command> {
  const root = new Command('rvt-conform')
    .description('Conformance harness for the Linux RDMA verbs (rdmavt rvt_post_srq_recv and siblings)')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    // A command's options follow its name: commander otherwise hands `agent status --tls-cert` to `agent`, which has a flag of that name.
    .enablePositionalOptions();
  // `help run` shows run's own help, so it needs run's module.
  const name = argv[2] === 'help' ? argv[3] : argv[2];
  const named = name === undefined ? undefined : COMMANDS[name];
  if (named !== undefined) (await named.load())(root);
  else for (const [name, entry] of Object.entries(COMMANDS)) root.command(name).usage(entry.usage).summary(entry.summary);
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

