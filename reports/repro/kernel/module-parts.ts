import type { CaseResult, RunResults } from '../../results-schema.js';
import { checkLine, clauseCounts, clauseWords } from '../case.js';
import { cString } from '../c-syntax.js';
import { literalText, prFormat, prInfo } from './c-kernel.js';

/** The parts every kernel reproducer shares, whether it replays calls or a concurrent workload. */

/** The module's name: rvt_repro.ko, from rvt_repro.c. */
export const MODULE_NAME = 'rvt_repro';

/** The files of a kernel reproducer, by name: the module's C, its Kbuild, and a Makefile for `make` in its folder. */
export type ModuleFiles = Record<string, string>;

/**
 * The module's own lines quote the recording's splat, so they must not read as one: whatever
 * watches the kernel log (the harness, a CI grep for "WARNING: ") would take the quote for a
 * splat of the replay. The keyword loses its colon; a reader still sees what it was.
 */
const defused = (text: string): string => text.replace(/\b(BUG|WARNING|UBSAN|KASAN): /g, '$1 - ').replace(/\bOops\b/g, 'oops').replace(/\bKernel panic\b/g, 'kernel panic');

/**
 * What the module says before it replays anything, so an oops in the replay still leaves it in
 * the log: for each clause the recording broke, what its source says and what the check expected.
 */
export function clauseLines(results: RunResults, kase: CaseResult): string[] {
  const { broken } = clauseCounts(kase);
  return broken.flatMap((id) => {
    const words = clauseWords(results, id);
    const failed = kase.checks.filter((k) => k.clause === id && k.status === 'fail');
    return [
      prInfo(defused(`${kase.id}: clause ${id} was broken in the recording: ${words.statement}`), 1),
      ...(words.quote === undefined ? [] : [prInfo(defused(`${kase.id}: ${id}: ${words.quote.where} says: "${words.quote.text}"`), 1)]),
      ...failed.map((k) => prInfo(defused(`${kase.id}: ${checkLine(k)}`), 1)),
    ];
  });
}

/**
 * The last line, the verdict: did the recorded behaviour (and so the broken clauses) reproduce? A
 * recording by another adapter (the model's, of a case a kernel run cannot survive) is what the
 * clauses expect: reproducing it means the device behaves as they say.
 */
export function verdict(results: RunResults, kase: CaseResult): string[] {
  const { checked, broken } = clauseCounts(kase);
  const id = literalText(kase.id);
  if (results.adapter.adapter !== 'kernel') {
    const recording = `the ${literalText(results.adapter.adapter)} adapter's recording (what its ${checked.length} clause(s) expect)`;
    return [
      'if (differences)',
      `\t${prFormat(`${id}: not reproduced: %d difference(s) from ${recording}`, ['differences'], 2)}`,
      'else',
      `\t${prFormat(`${id}: reproduced: every result as in ${recording}`, [], 2)}`,
    ];
  }
  const clauses = `${broken.length} of ${checked.length} clauses broken`;
  return [
    'if (differences)',
    `\t${prFormat(`${id}: not reproduced: %d difference(s) from the recording, where ${clauses}`, ['differences'], 2)}`,
    'else',
    `\t${prFormat(`${id}: reproduced: ${clauses}, as recorded`, [], 2)}`,
  ];
}

/** The end of init, after the replay: the device given back, the verdict, and -EAGAIN. */
export function initEnd(results: RunResults, kase: CaseResult): string[] {
  return [
    'ib_unregister_event_handler(&device_events);',
    'ib_device_put(dev);',
    ...verdict(results, kase),
    '/* A failed init unloads the module at once: one insmod is one complete run. */',
    'return -EAGAIN;',
  ];
}

/** What follows init: its registration, the module's description and its licence. */
export function moduleEnd(kase: CaseResult): string[] {
  return ['module_init(rvt_repro_init);', '', `MODULE_DESCRIPTION(${cString(`rvt-conform reproducer: ${kase.id}`)});`, 'MODULE_LICENSE("GPL");', ''];
}

/** The module's C with its Kbuild and a Makefile that builds it against the running kernel (or KDIR). */
export function moduleFiles(source: string): ModuleFiles {
  return {
    [`${MODULE_NAME}.c`]: source,
    Kbuild: `# SPDX-License-Identifier: GPL-2.0\nobj-m += ${MODULE_NAME}.o\n`,
    Makefile: [
      '# SPDX-License-Identifier: GPL-2.0',
      `# Builds ${MODULE_NAME}.ko against the running kernel (or KDIR=/path/to/build).`,
      'KDIR ?= /lib/modules/$(shell uname -r)/build',
      '',
      'all:',
      '\t$(MAKE) -C $(KDIR) M=$(CURDIR) modules',
      '',
      'clean:',
      '\t$(MAKE) -C $(KDIR) M=$(CURDIR) clean',
      '',
    ].join('\n'),
  };
}
