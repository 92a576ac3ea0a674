import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { Profile } from '../adapters/adapter.js';
import { canonicalAdapter } from '../adapters/registry.js';
import { ALL_FORMATS, type ReportFormat } from '../reports/write.js';
import { IN_GUEST_ENV } from '../vm/job-script.js';
import { MAX_CASE_TIMEOUT_SECONDS } from './options.js';
import { loadYamlFile } from './yaml-file.js';

/** The names looked for in the current directory when no --config is given. */
export const CONFIG_NAMES = ['rvt-conform.config.yaml', 'rvt-conform.config.yml', 'rvt-conform.config.json'] as const;

const path = z.string().min(1);

/**
 * `rvt-conform.config.yaml` (or .yml, .json): what a CI job would otherwise pass as flags to run,
 * fuzz and agent, each command taking the keys it has flags for. Flags given on the command line
 * win. Paths are relative to the file's folder.
 */
export const ConfigFile = z
  .strictObject({
    $schema: z.string().optional().describe('the JSON Schema of this file, for editors (schemas/config.schema.json)'),
    adapter: z.string().min(1).optional().describe('--adapter: model, ibverbs, kernel, grpc, model:NAME, mutant:NAME, or the path of a module that exports an adapter definition'),
    device: z.string().min(1).optional().describe('--device: the RDMA device of --adapter ibverbs or kernel'),
    vm: z.boolean().optional().describe('--vm: run inside the QEMU VM (ibverbs, kernel)'),
    kernel: z.string().min(1).optional().describe('--kernel: the kernel the VM boots (a release in /boot, a staged install folder, or a built kernel tree; a path is relative to this file)'),
    target: z.string().min(1).optional().describe('--target: where the agent of --adapter grpc listens (host:port)'),
    tlsCa: path.optional().describe('--tls-ca (grpc)'),
    tlsCert: path.optional().describe('--tls-cert (grpc; for agent: its own certificate)'),
    tlsKey: path.optional().describe('--tls-key (grpc; for agent: its own key)'),
    tokenFile: path.optional().describe('--token-file (grpc; for agent: the token it requires)'),
    tlsServerName: z.string().min(1).optional().describe("--tls-server-name (grpc): the name to check in the agent's certificate"),
    adapterOptions: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('options of an adapter that has no flags for them (--adapter-option key=value)'),
    profile: Profile.optional().describe('--profile'),
    expectations: path.optional().describe('--expectations: the known outcomes of this implementation (YAML)'),
    formats: z.array(z.enum(ALL_FORMATS as [ReportFormat, ...ReportFormat[]])).min(1).optional().describe('--format: the reports to write; results.json is always written'),
    out: path.optional().describe('--out: where the reports go'),
    case: z.string().min(1).optional().describe('--case: only the cases whose id (or verb) matches this glob'),
    timeout: z.number().int().min(1).max(MAX_CASE_TIMEOUT_SECONDS).optional().describe('--timeout: per-case timeout in seconds'),
  })
  .meta({ title: 'rvt-conform config', description: 'Defaults for rvt-conform run, fuzz and agent; flags on the command line override them.' });
export type ConfigFile = z.infer<typeof ConfigFile>;

/** The keys holding paths: made absolute against the file's folder, so the file means the same from anywhere. */
const PATH_KEYS = ['tlsCa', 'tlsCert', 'tlsKey', 'tokenFile', 'expectations', 'out'] as const;

/** The config key → the command's option attribute, where they differ. */
const ATTRIBUTE: Partial<Record<keyof ConfigFile, string>> = { formats: 'format', adapterOptions: 'adapterOption' };

/** The config a command reads: the --config file, else one of CONFIG_NAMES in the current directory, else none. */
export async function findConfig(given: string | undefined, cwd = process.cwd()): Promise<{ file: string; config: ConfigFile } | undefined> {
  const file = given ?? CONFIG_NAMES.map((name) => join(cwd, name)).find((candidate) => existsSync(candidate));
  if (file === undefined) return undefined;
  const config = await loadYamlFile(file, ConfigFile, 'config file', 'see docs/reference.md (the config file) and schemas/config.schema.json');
  const folder = dirname(resolve(file));
  for (const key of PATH_KEYS) {
    const value = config[key];
    if (value !== undefined && !isAbsolute(value)) config[key] = join(folder, value);
  }
  // An adapter given as a module path is a path too; a name (model, mutant:x, a package) is not.
  if (config.adapter !== undefined && /^\.{1,2}\//.test(config.adapter)) config.adapter = join(folder, config.adapter);
  // So is a kernel given as a folder (staged or a tree); a release name is not.
  if (config.kernel !== undefined && config.kernel.includes('/') && !isAbsolute(config.kernel)) config.kernel = join(folder, config.kernel);
  return { file, config };
}

/**
 * `--config FILE` on a command, and its values applied before the command runs to every option
 * the command has that the command line did not set (commander's value source "config").
 */
export function withConfig(command: Command): Command {
  return command
    .option('--config <file>', `defaults for these options (YAML or JSON; default: ${CONFIG_NAMES[0]} in the current directory, if there)`)
    .hook('preAction', async (self) => {
      const found = await findConfig(self.getOptionValue('config') as string | undefined);
      if (found !== undefined) applyConfig(self, found.config);
    });
}

/** Sets each option the config gives and the command line left unset; --adapter-option pairs merge, the command line's winning. */
export function applyConfig(command: Command, config: ConfigFile): void {
  const attributes = new Set(command.options.map((option) => option.attributeName()));
  for (const [key, value] of Object.entries(config)) {
    const attribute = ATTRIBUTE[key as keyof ConfigFile] ?? key;
    // In the guest, the host's `vm: true` and `kernel` are done already: taking them again would boot a VM in the VM.
    const hostOnly = (key === 'vm' || key === 'kernel') && process.env[IN_GUEST_ENV] === '1';
    if (key === '$schema' || hostOnly || value === undefined || !attributes.has(attribute)) continue;
    const source = command.getOptionValueSource(attribute);
    if (attribute === 'adapterOption') {
      command.setOptionValueWithSource(attribute, { ...(value as object), ...(command.getOptionValue(attribute) as object | undefined) }, 'config');
    } else if (source === undefined || source === 'default') {
      command.setOptionValueWithSource(attribute, key === 'adapter' ? canonicalAdapter(value as string) : value, 'config');
    }
  }
}
