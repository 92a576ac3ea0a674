import { type Command, InvalidArgumentError } from 'commander';
import { adapterFlags, builtInAdapters, canonicalAdapter } from '../adapters/registry.js';

/** `--adapter-option key=value`: an option of an adapter that has no flag of its own (an external one); repeatable. */
function collectAdapterOption(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError('expected key=value');
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/**
 * The adapter options of a command, as the registry declares them: `--adapter`, each built-in
 * adapter's flags (or only those named in `only`, where the command's own flags would clash), and
 * `--adapter-option` for the rest.
 */
export function addAdapterOptions(command: Command, what: string, only?: readonly string[]): Command {
  const names = builtInAdapters()
    .map((d) => d.name)
    .filter((n) => !n.includes(':'));
  command.option('-a, --adapter <name>', `${what} (${names.join(', ')}, model:NAME, mutant:NAME, or the path of a module that exports an adapter definition)`, canonicalAdapter, 'model');
  // A flag several adapters share (--device) says what it means for each of them.
  for (const { key, flag, descriptions } of adapterFlags()) if (only === undefined || only.includes(key)) command.option(flag.flag, descriptions.join('; '));
  return command.option('--adapter-option <key=value>', 'an option of the adapter that has no flag of its own (repeatable; e.g. for an external adapter)', collectAdapterOption);
}

/** The adapter options a command's parsed flags carry, for createAdapter: the adapter flags that were given, then the --adapter-option pairs. */
export function adapterOptionsOf(flags: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const { key } of adapterFlags()) if (flags[key] !== undefined) given[key] = flags[key];
  return { ...given, ...(flags['adapterOption'] as Record<string, string> | undefined) };
}

/** The command-line words that reach the same adapter the same way (a replay command): `--adapter`, its flags, its other options. */
export function adapterWords(adapter: string, options: Readonly<Record<string, unknown>>): string[] {
  const flags = new Map(adapterFlags().map(({ key, flag }) => [key, flag.flag.split(' ')[0] ?? key]));
  const words = ['--adapter', adapter];
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const flag = flags.get(key);
    words.push(...(flag === undefined ? ['--adapter-option', `${key}=${String(value)}`] : [flag, String(value)]));
  }
  return words;
}
