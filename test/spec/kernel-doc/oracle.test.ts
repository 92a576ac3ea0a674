import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseManPages } from '../../../spec/kernel-doc/man.js';
import { compareReadings, describeDisagreement } from '../../../spec/kernel-doc/oracle-compare.js';
import { parseKernelDoc } from '../../../spec/kernel-doc/parse.js';
import { runKernelDocScript } from '../../../spec/kernel-doc/script-oracle.js';
import { EXTRACTION_TIMEOUT_MS, ORACLE_SAMPLE, TARBALL, hasTarball, kernelTree, prepareKernelSource } from '../../kernel-source.js';

/**
 * THE ORACLE: the kernel's own scripts/kernel-doc (Perl) and parseKernelDoc must read every
 * kernel-doc comment (functions, structs, unions, enums, typedefs) the same way, on every file of rdmavt and on a fixed sample of 200 documented
 * files from across the tree (test/fixtures/kernel-doc/oracle-sample.txt). See oracle-compare.ts
 * for the (small) normalisation the comparison needs. The whole tree: bench/kernel-doc.ts.
 */

const RDMAVT = 'drivers/infiniband/sw/rdmavt';
const absent = !hasTarball;
const title = absent
  ? `kernel-doc oracle (skipped: ${TARBALL} is absent; apt-get install linux-source-6.1 to run it)`
  : 'kernel-doc oracle: scripts/kernel-doc and parseKernelDoc agree';

/** Every disagreement on these files, and how many functions and types the script documented in them. */
async function compare(root: string, files: readonly string[]): Promise<{ problems: string[]; compared: number; types: number }> {
  const pages = await runKernelDocScript(root, files);
  const problems: string[] = [];
  let compared = 0;
  let types = 0;
  for (const file of files) {
    const script = parseManPages(pages.get(file) ?? '', `${file} (kernel-doc -man)`);
    const ours = parseKernelDoc(await readFile(join(root, file), 'utf8'), file);
    problems.push(...script.diagnostics.map((d) => `${d.file}:${d.line}: ${d.code}: ${d.message}`));
    const entries = (parse: typeof ours) => [...parse.functions, ...parse.types];
    problems.push(...compareReadings(file, entries(ours), entries(script)).map(describeDisagreement));
    compared += script.functions.length;
    types += script.types.length;
  }
  return { problems, compared, types };
}

describe.skipIf(absent)(title, () => {
  beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);

  it('same functions, parameters, sections and signatures on every rdmavt .c file', async () => {
    const root = kernelTree();
    const files = (await readdir(join(root, RDMAVT))).filter((name) => name.endsWith('.c')).sort();
    expect(files).toContain('qp.c');
    const { problems, compared } = await compare(root, files.map((name) => `${RDMAVT}/${name}`));
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(100); // the script really documented the driver
  }, 120_000);

  it('the same, and the same structs, unions, enums and typedefs with their members, on a fixed sample of 200 documented files from across the tree', async () => {
    expect(ORACLE_SAMPLE).toHaveLength(200);
    const { problems, compared, types } = await compare(kernelTree(), ORACLE_SAMPLE);
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
    expect(types).toBeGreaterThan(300); // 327 in 6.1
  }, 120_000);

  it('the same on the types of include/rdma/ib_verbs.h', async () => {
    const { problems, types } = await compare(kernelTree(), ['include/rdma/ib_verbs.h']);
    expect(problems).toEqual([]);
    expect(types).toBe(6);
  }, 120_000);
});
