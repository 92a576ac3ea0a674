import { execa } from 'execa';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseManPages } from '../../../spec/kernel-doc/man.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { EXTRACTION_TIMEOUT_MS, TARBALL, hasTarball, kernelTree, prepareKernelSource } from '../../kernel-source.js';
import { disagreements } from '../../../spec/kernel-doc/oracle-compare.js';

/**
 * THE ORACLE: the kernel's own scripts/kernel-doc (Perl) and parseKernelDoc must read every
 * kernel-doc comment under drivers/infiniband/sw/rdmavt the same way. See oracle-compare.ts for
 * the (small) normalisation the comparison needs.
 */

const RDMAVT = 'drivers/infiniband/sw/rdmavt';
const absent = !hasTarball;
const title = absent
  ? `kernel-doc oracle (skipped: ${TARBALL} is absent; apt-get install linux-source-6.1 to run it)`
  : 'kernel-doc oracle: scripts/kernel-doc and parseKernelDoc agree on rdmavt';

describe.skipIf(absent)(title, () => {
  beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);
  it('same functions, parameters, sections and signatures on every .c file', async () => {
    // The driver and the script, extracted once per machine.
    const root = kernelTree();
    const files = (await readdir(join(root, RDMAVT))).filter((name) => name.endsWith('.c')).sort();
    expect(files).toContain('qp.c');
    const problems: string[] = [];
    let compared = 0;
    for (const name of files) {
      const file = `${RDMAVT}/${name}`;
      const source = await readFile(join(root, file), 'utf8');
      const man = await execa('perl', ['scripts/kernel-doc', '-man', file], { cwd: root });
      const script = parseManPages(man.stdout, `${file} (kernel-doc -man)`);
      const ours = parseKernelDoc(source, file);
      problems.push(...script.diagnostics.map((d) => `${d.file}:${d.line}: ${d.code}: ${d.message}`));
      problems.push(...disagreements(file, ours.functions, script.functions));
      compared += script.functions.length;
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(100); // the script really documented the driver
  }, 120_000);
});
