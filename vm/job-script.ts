/**
 * The per-run job script stage 2 executes: a clean environment, the work directory, the command.
 * Every word is single-quoted, so arguments reach the command exactly as given on the host.
 */

/** A kernel module the job loads before its command (insmod: its dependencies must be loaded already). */
export interface JobModule {
  path: string;
  params?: readonly string[];
}

export interface JobSpec {
  command: readonly string[];
  /** The command's working directory in the guest. */
  workDir: string;
  env: Readonly<Record<string, string>>;
  modules?: readonly JobModule[];
  /** Shell lines run after the modules are in, before the command (e.g. bringing a device up); trusted code only. */
  setup?: readonly string[];
}

/** The guest's root is the host's, read-only: HOME must be somewhere writable. */
const GUEST_HOME = '/tmp/rvt-home';
/** Set for every command in the guest: a command there knows it already runs in the VM (a config's `vm: true` is the host's). */
export const IN_GUEST_ENV = 'RVT_CONFORM_GUEST';
const DEFAULT_ENV: Readonly<Record<string, string>> = {
  [IN_GUEST_ENV]: '1',
  HOME: GUEST_HOME,
  PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  LANG: 'C.UTF-8',
  TERM: 'dumb',
};
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function jobScript(spec: JobSpec): string {
  if (spec.command.length === 0) throw new TypeError('the VM job needs a command');
  const env = { ...DEFAULT_ENV, ...spec.env };
  for (const name of Object.keys(env)) {
    if (!ENV_NAME.test(name)) throw new TypeError(`not a valid environment variable name: ${JSON.stringify(name)}`);
  }
  const assignments = Object.entries(env).map(([name, value]) => quote(`${name}=${value}`));
  return [
    '#!/bin/sh',
    `mkdir -p ${quote(env.HOME ?? GUEST_HOME)}`,
    `cd -- ${quote(spec.workDir)} || exit 125`,
    ...(spec.modules ?? []).map(
      (m) => `insmod ${[m.path, ...(m.params ?? [])].map(quote).join(' ')} || { echo ${quote(`rvt-vm: insmod ${m.path} failed`)} >&2; exit 125; }`,
    ),
    ...(spec.setup ?? []).map((line) => `{ ${line}; } || { echo ${quote(`rvt-vm: setup failed: ${line}`)} >&2; exit 125; }`),
    // `sh -c 'exec "$@"'` runs the command word as a program even if it contains '='.
    `exec env -i ${assignments.join(' ')} /bin/sh -c 'exec "$@"' rvt-job ${spec.command.map(quote).join(' ')}`,
    '',
  ].join('\n');
}

/** A shell word that stands for `word` exactly. */
export function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
