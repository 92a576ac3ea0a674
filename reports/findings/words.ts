import type { FindingsRun } from './schema.js';

/** A run's kernel as a report names it: release, how the VM had it, its config. */
export function kernelWords(run: FindingsRun): string {
  if (run.kernel === null) return 'no kernel (a model)';
  const how = [run.kernelForm, run.kernelConfig === null ? null : `config ${run.kernelConfig}`].filter((w) => w !== null);
  return `linux ${run.kernel}${how.length === 0 ? '' : ` (${how.join(', ')})`}`;
}

/** The device and what drives it: the kernel driver, the user-space provider. */
export function deviceWords(run: FindingsRun): string {
  const drivenBy = [...new Set([run.driver, run.provider].filter((d) => d !== null))];
  return `${run.device}${drivenBy.length === 0 ? '' : ` (${drivenBy.join(', ')})`}`;
}

export const LAYER_WORDS = { kernel: 'the kernel verbs', libibverbs: 'libibverbs' } as const;

/** A run in a table cell: kernel, device, layer. */
export const runLabel = (run: FindingsRun): string => `${run.kernel ?? 'model'} ${run.device}/${run.layer}`;

/** What a reproducer is, in a report's words. */
export const REPRODUCER_WORDS = {
  program: 'the libibverbs program',
  module: 'the kernel module (it calls the kernel verbs)',
  hostile: "the hostile tier's program and the scenario it runs",
  command: 'no file: the command that writes it',
} as const;
