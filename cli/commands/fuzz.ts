import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { modelAdapter } from '../../adapters/model/index.js';
import { writeFileAtomic } from '../../reports/atomic.js';
import { FuzzResults } from '../../suites/fuzz/report-schema.js';
import { fuzz } from '../../suites/fuzz/run.js';
import { DEVICE_ADAPTERS, canonicalAdapter, createAdapter } from '../adapters.js';
import { UserError } from '../errors.js';
import { parsePositiveInt, parseProfile, parseSeed } from '../options.js';
import type { Profile } from '../../adapters/adapter.js';

interface FuzzFlags {
  adapter: string;
  runs: number;
  seed?: number;
  path?: string;
  profile?: Profile;
  out: string;
  json: boolean;
  device?: string;
  vm: boolean;
}

export function registerFuzzCommand(program: Command): void {
  program
    .command('fuzz')
    .description('differential fuzzing: random verb sequences on an adapter and on the reference model; a divergence is shrunk and written with its replay seed and path')
    .option('-a, --adapter <name>', 'the implementation to fuzz (model, ibverbs, kernel, grpc, ...)', canonicalAdapter, 'model')
    .option('--runs <n>', 'number of random sequences', parsePositiveInt, 100)
    .option('--seed <n>', 'seed (replay a divergence with its seed and --path)', parseSeed)
    .option('--path <path>', 'replay path of a divergence, from fuzz.json')
    .option('-p, --profile <profile>', "documented (success and bad_wr must agree) or rdmavt (errno names too); default: the adapter's", parseProfile)
    .option('-o, --out <dir>', 'where fuzz.json goes', 'conformance-report')
    .option('--json', 'print fuzz.json to stdout', false)
    .option('--device <name>', 'with --adapter ibverbs or kernel: the RDMA device (e.g. rvt_sim0, the real rdmavt)')
    .option('--vm', 'with --adapter ibverbs or kernel: fuzz inside the QEMU VM (fuzz.json comes back under the current directory)', false)
    .action(async (flags: FuzzFlags) => {
      if (flags.vm) {
        if (!DEVICE_ADAPTERS.includes(flags.adapter)) {
          throw new UserError(`--vm is for --adapter ibverbs or kernel, not ${flags.adapter}`, { hint: 'add --adapter kernel --device rvt_sim0, or drop --vm' });
        }
        const { runSubcommandInVm } = await import('../../adapters/rxe/run-in-vm.js');
        process.exitCode = await runSubcommandInVm('fuzz', flags.adapter, process.argv.slice(process.argv.indexOf('fuzz') + 1), flags.out, { device: flags.device });
        return;
      }
      const adapter = await createAdapter(flags.adapter, flags.device === undefined ? {} : { device: flags.device });
      try {
        const info = await adapter.info();
        const profile = flags.profile ?? info.defaultProfile;
        const report = await fuzz({
          adapter,
          reference: modelAdapter(),
          profile,
          runs: flags.runs,
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          ...(flags.path === undefined ? {} : { path: flags.path }),
        });
        const device = flags.device === undefined ? '' : ` --device ${flags.device}`;
        const replay = report.divergence ? `rvt-conform fuzz --adapter ${flags.adapter}${device} --profile ${profile} --seed ${report.seed} --path '${report.divergence.path}'` : '';
        const results = FuzzResults.parse({
          schemaVersion: 1,
          adapter: info.adapter,
          reference: 'model',
          profile,
          ...report,
          divergence: report.divergence === null ? null : { ...report.divergence, replay },
        });
        const file = join(resolve(flags.out), 'fuzz.json');
        await writeFileAtomic(file, `${JSON.stringify(results, null, 2)}\n`);
        if (flags.json) process.stdout.write(`${JSON.stringify(results)}\n`);
        else {
          process.stdout.write(`fuzz ${info.adapter} vs model (${profile}): ${results.runs} runs, ${results.commands} commands, ${results.commandsPerSecond}/s, seed ${results.seed}\n`);
          process.stdout.write(results.divergence ? `DIVERGENCE: ${results.divergence.message}\n  minimal sequence: ${results.divergence.commands}\n  replay: ${replay}\n` : 'no divergence\n');
          process.stdout.write(`written: ${file}\n`);
        }
        process.exitCode = results.divergence ? 1 : 0;
      } finally {
        await adapter.dispose();
      }
    });
}
