import { z } from 'zod';
import { UserError } from '../spec/errors.js';
import type { Adapter } from './adapter.js';
import { grpcAdapterFromFlags } from './grpc/flags.js';
import { implementations } from './model/implementations.js';
import { modelAdapter } from './model/index.js';
import { mutantAdapter, mutants } from './mutants/index.js';

/** One option of an adapter as a command-line flag: commander's syntax (`--device <name>`) and its help. */
export interface AdapterFlag {
  readonly flag: string;
  readonly description: string;
}

/**
 * An adapter as the commands know it: a name, the options it takes (a zod object, checked before
 * the adapter is built) and how to build it. Every command that takes `--adapter` reads this, and an
 * adapter outside this package is one of these as its module's default export.
 */
export interface AdapterDefinition<Options extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly options: Options;
  /** The options given as flags, by option key. An external adapter's options come from `--adapter-option key=value` or the config file. */
  readonly flags?: { readonly [K in keyof z.infer<Options>]?: AdapterFlag };
  /** It drives a real device, so it can run in the VM (`--vm`). */
  readonly vm?: boolean;
  create(options: z.infer<Options>): Adapter | Promise<Adapter>;
}

/** Declares an adapter (typed options in, an Adapter out): the identity, for the types. */
export function defineAdapter<Options extends z.ZodObject>(definition: AdapterDefinition<Options>): AdapterDefinition<Options> {
  return definition;
}

const none = z.strictObject({});
const deviceOption = z.strictObject({ device: z.string().min(1).optional() });

/** An adapter that drives a real device (`--device`, `--vm`), its module loaded only when it is built. */
const deviceAdapter = (
  name: string,
  description: string,
  fallback: string,
  load: (options: z.infer<typeof deviceOption>) => Promise<Adapter>,
): AdapterDefinition<typeof deviceOption> =>
  defineAdapter({
    name,
    description,
    options: deviceOption,
    flags: { device: { flag: '--device <name>', description: `with --adapter ${name}: the RDMA device (default: ${fallback})` } },
    vm: true,
    create: load,
  });

const grpc = defineAdapter({
  name: 'grpc',
  description: 'an implementation served by `rvt-conform agent` on another machine (or in the VM)',
  options: z.strictObject({
    target: z.string().min(1).optional(),
    tlsCa: z.string().min(1).optional(),
    tlsCert: z.string().min(1).optional(),
    tlsKey: z.string().min(1).optional(),
    tokenFile: z.string().min(1).optional(),
    tlsServerName: z.string().min(1).optional(),
  }),
  flags: {
    target: { flag: '--target <host:port>', description: 'with --adapter grpc: where the agent listens (rvt-conform agent on the machine with the device)' },
    tlsCa: { flag: '--tls-ca <file>', description: "with --adapter grpc: connect over TLS, trusting this CA for the agent's certificate" },
    tlsCert: { flag: '--tls-cert <file>', description: "with --adapter grpc: this client's certificate, for an agent that asks for one (mutual TLS)" },
    tlsKey: { flag: '--tls-key <file>', description: "with --adapter grpc: this client's private key" },
    tokenFile: { flag: '--token-file <file>', description: 'with --adapter grpc: the bearer token the agent requires (the file holds it on one line)' },
    tlsServerName: { flag: '--tls-server-name <name>', description: "with --adapter grpc and --tls-ca: the name to check in the agent's certificate, when --target's host is not in it (e.g. an agent reached by IP address)" },
  },
  create: (options) => grpcAdapterFromFlags(options),
});

/** The adapters of this package, by the name given to --adapter. Real-device adapters load their modules on demand: a model run never pays for them. */
const BUILT_IN: readonly AdapterDefinition[] = [
  defineAdapter({ name: 'model', description: 'the pure-TypeScript reference model of rdmavt 6.1', options: none, create: () => modelAdapter() }),
  grpc,
  deviceAdapter('ibverbs', 'a real device through libibverbs (the native addon): rxe0, siw0, rvt_sim0 (rdma-core ipathverbs)', 'the first device libibverbs lists', async (options) =>
    (await import('./ibverbs/adapter.js')).rxeAdapter(options),
  ),
  deviceAdapter('kernel', 'the kernel verbs through the rvtc module (in the VM): rxe0, siw0, rvt_sim0 (the real rdmavt)', 'rxe0', async (options) =>
    (await import('./kernel/adapter.js')).kernelAdapter(options),
  ),
  ...Object.entries(implementations).map(([name, behaviour]) =>
    defineAdapter({ name: `model:${name}`, description: behaviour.description, options: none, create: () => modelAdapter(behaviour, `model:${name}`) }),
  ),
  ...mutants.map((m) => defineAdapter({ name: `mutant:${m.name}`, description: m.description, options: none, create: () => mutantAdapter(m) })),
];

const BY_NAME = new Map(BUILT_IN.map((d) => [d.name, d]));

/**
 * Earlier names still accepted: the libibverbs adapter was `rxe` while rxe0 was the only device it
 * drove; it now drives siw0 and rvt_sim0 (rdma-core's ipathverbs) as well.
 */
const ALIASES: Record<string, string> = { rxe: 'ibverbs' };

/** The adapter an --adapter value names (parses the option, so every command sees one name). */
export const canonicalAdapter = (name: string): string => ALIASES[name] ?? name;

export const builtInAdapters = (): readonly AdapterDefinition[] => BUILT_IN;

/** Every flag a built-in adapter declares, once each, with the option key it sets and the adapters that take it. */
export function adapterFlags(): { key: string; flag: AdapterFlag; adapters: string[]; descriptions: string[] }[] {
  const byKey = new Map<string, { key: string; flag: AdapterFlag; adapters: string[]; descriptions: string[] }>();
  for (const definition of BUILT_IN) {
    for (const [key, flag] of Object.entries(definition.flags ?? {}) as [string, AdapterFlag][]) {
      const seen = byKey.get(key);
      if (seen === undefined) byKey.set(key, { key, flag, adapters: [definition.name], descriptions: [flag.description] });
      else {
        seen.adapters.push(definition.name);
        seen.descriptions.push(flag.description);
      }
    }
  }
  return [...byKey.values()];
}

/** The names of the built-in adapters that run in the VM. */
export const vmAdapters = (): string[] => BUILT_IN.filter((d) => d.vm === true).map((d) => d.name);

/** An --adapter value that names a module (a path, or a package) rather than a built-in adapter; `model:x` and `mutant:x` are always ours. */
const isExternalAdapter = (name: string): boolean => !BY_NAME.has(canonicalAdapter(name)) && !/^(model|mutant):/.test(name);

/** What a definition from someone else's module must have (checked by shape: its zod may be another copy). */
const ExternalDefinition = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  options: z.custom<z.ZodObject>((v) => typeof (v as { safeParse?: unknown } | null)?.safeParse === 'function', 'a zod object of the options'),
  create: z.custom<AdapterDefinition['create']>((v) => typeof v === 'function', 'a function that returns the adapter'),
});

/**
 * Loads an adapter definition from a module (`./my-adapter.js`, `/abs/path.mjs`, or a package
 * installed where the command runs): its default export, or an export named `adapter`.
 */
export async function loadExternalAdapter(specifier: string, cwd = process.cwd()): Promise<AdapterDefinition> {
  const { pathToFileURL } = await import('node:url');
  const { resolve, join } = await import('node:path');
  const { createRequire } = await import('node:module');
  const isPath = /^\.{0,2}\//.test(specifier) || /\.m?js$/.test(specifier);
  let url: string;
  try {
    url = isPath ? pathToFileURL(resolve(cwd, specifier)).href : pathToFileURL(createRequire(join(cwd, 'package.json')).resolve(specifier)).href;
  } catch (error) {
    throw new UserError(`unknown adapter '${specifier}': not a built-in adapter, and no module or package of that name is found from ${cwd}`, {
      hint: `choose one of: ${BUILT_IN.map((d) => d.name).join(', ')}; or give the path of a module (./my-adapter.js) that exports an adapter definition`,
      cause: error,
    });
  }
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new UserError(`adapter module ${specifier} could not be loaded: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'check the path, and that the module is ESM or CommonJS JavaScript (build TypeScript first)',
      cause: error,
    });
  }
  const candidate = loaded['default'] ?? loaded['adapter'];
  const parsed = ExternalDefinition.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`adapter module ${specifier} does not export an adapter definition: ${issue === undefined ? '' : `${issue.path.join('.') || 'the export'}: ${issue.message}`}`, {
      hint: "export default defineAdapter({ name, description, options: z.object({...}), create(options) { return adapter } }) (import { defineAdapter } from 'rvt-conform')",
    });
  }
  return candidate as AdapterDefinition;
}

/** The definition an --adapter value names: a built-in adapter, or a module that exports one. */
export async function adapterDefinition(name: string): Promise<AdapterDefinition> {
  const builtIn = BY_NAME.get(canonicalAdapter(name));
  if (builtIn !== undefined) return builtIn;
  if (isExternalAdapter(name)) return loadExternalAdapter(name);
  throw new UserError(`unknown adapter '${name}'`, {
    hint: `choose one of: ${BUILT_IN.map((d) => d.name).join(', ')} (rxe is the old name of ibverbs), or give the path of a module that exports an adapter definition`,
  });
}

/**
 * Builds the adapter `name` from the options a command gathered (its flags, `--adapter-option`s,
 * the config file): every option given must be one this adapter takes, and valid, before anything
 * is built.
 */
export async function createAdapter(name: string, given: Readonly<Record<string, unknown>> = {}): Promise<Adapter> {
  const definition = await adapterDefinition(name);
  const takes = new Set(Object.keys(definition.options.shape));
  const options = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  for (const { key, flag, adapters } of adapterFlags()) {
    if (key in options && !takes.has(key)) {
      const option = flag.flag.split(' ')[0];
      throw new UserError(`${option} is for --adapter ${adapters.join(' or ')}, not ${definition.name}`, {
        hint: key === 'device' && definition.name === 'grpc' ? 'choose the device on the agent: rvt-conform agent --adapter ibverbs --device NAME' : `add --adapter ${adapters[0]}, or drop ${option}`,
      });
    }
  }
  const parsed = definition.options.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'options');
    throw new UserError(`adapter ${definition.name}: option ${where}: ${issue?.message ?? 'invalid'}`, {
      hint: `it takes: ${[...takes].join(', ') || 'no options'}`,
    });
  }
  return definition.create(parsed.data);
}

/** --vm runs the command in the VM on one of its devices: only a device adapter has one to drive. */
export function ensureVmAdapter(adapter: string): void {
  if (BY_NAME.get(canonicalAdapter(adapter))?.vm !== true) {
    const names = vmAdapters();
    throw new UserError(`--vm is for --adapter ${names.join(' or ')}, not ${adapter}`, { hint: `add --adapter ${names.join(' or --adapter ')}, or drop --vm` });
  }
}
