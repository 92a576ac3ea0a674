import type { Command } from 'commander';
import type { Adapter } from '../adapters/adapter.js';
import { type GrpcFlags, grpcAdapterFromFlags, strayGrpcFlag } from '../adapters/grpc/flags.js';
import { implementations } from '../adapters/model/implementations.js';
import { modelAdapter } from '../adapters/model/index.js';
import { mutantAdapter, mutants } from '../adapters/mutants/index.js';
import { UserError } from '../spec/errors.js';

/** What an adapter may need besides its name: the device it drives; for grpc, the agent and credentials. */
export interface AdapterOptions extends GrpcFlags {
  device?: string | undefined;
}

/** The adapters the CLI can build, by the name given to --adapter. */
const FACTORIES: Record<string, (options: AdapterOptions) => Adapter | Promise<Adapter>> = {
  model: () => modelAdapter(),
  grpc: (options) => grpcAdapterFromFlags(options),
  // Real-device adapters load on demand: a model run never pays for their modules.
  ibverbs: async (options) => (await import('../adapters/rxe/adapter.js')).rxeAdapter({ device: options.device }),
  kernel: async (options) => (await import('../adapters/kernel/adapter.js')).kernelAdapter({ device: options.device }),
  ...Object.fromEntries(Object.entries(implementations).map(([name, b]) => [`model:${name}`, () => modelAdapter(b, `model:${name}`)])),
  ...Object.fromEntries(mutants.map((m) => [`mutant:${m.name}`, () => mutantAdapter(m)])),
};

/**
 * Earlier names still accepted: the libibverbs adapter was `rxe` while rxe0 was the only device it
 * drove; it now drives siw0 and rvt_sim0 (rdma-core's ipathverbs) as well.
 */
const ALIASES: Record<string, string> = { rxe: 'ibverbs' };

/** The adapter an --adapter value names (parses the option, so every command sees one name). */
export const canonicalAdapter = (name: string): string => ALIASES[name] ?? name;

export const adapterNames = () => Object.keys(FACTORIES);

/** The adapters that drive a real device and take --device (and --vm). */
export const DEVICE_ADAPTERS = ['ibverbs', 'kernel'];

/** --vm runs the command in the VM on one of its devices: only a device adapter has one to drive. */
export function ensureVmAdapter(adapter: string): void {
  if (!DEVICE_ADAPTERS.includes(adapter)) {
    throw new UserError(`--vm is for --adapter ibverbs or kernel, not ${adapter}`, { hint: 'add --adapter ibverbs or --adapter kernel, or drop --vm' });
  }
}

/** The options of a command that reaches an implementation through an agent (--adapter grpc); createAdapter reads them. */
export function addGrpcOptions(command: Command): Command {
  return command
    .option('--target <host:port>', 'with --adapter grpc: where the agent listens (rvt-conform agent on the machine with the device)')
    .option('--tls-ca <file>', "with --adapter grpc: connect over TLS, trusting this CA for the agent's certificate")
    .option('--tls-cert <file>', "with --adapter grpc: this client's certificate, for an agent that asks for one (mutual TLS)")
    .option('--tls-key <file>', "with --adapter grpc: this client's private key")
    .option('--token-file <file>', 'with --adapter grpc: the bearer token the agent requires (the file holds it on one line)');
}

export async function createAdapter(name: string, options: AdapterOptions = {}): Promise<Adapter> {
  const factory = FACTORIES[canonicalAdapter(name)];
  if (factory === undefined) {
    throw new UserError(`unknown adapter '${name}'`, { hint: `choose one of: ${adapterNames().join(', ')} (rxe is the old name of ibverbs)` });
  }
  const stray = name === 'grpc' ? undefined : strayGrpcFlag(options);
  if (stray !== undefined) {
    throw new UserError(`${stray} is for --adapter grpc, not ${name}`, { hint: 'add --adapter grpc to run against an agent, or drop the flag' });
  }
  if (options.device !== undefined && !DEVICE_ADAPTERS.includes(canonicalAdapter(name))) {
    // The device of a grpc run is chosen where the agent runs (rvt-conform agent --device).
    throw new UserError(`--device is for --adapter ibverbs or kernel, not ${name}`, { hint: name === 'grpc' ? 'choose the device on the agent: rvt-conform agent --adapter ibverbs --device NAME' : 'drop --device, or add --adapter ibverbs or --adapter kernel' });
  }
  return factory(options);
}
