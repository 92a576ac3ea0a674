import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The kernel's own reading of its kernel-doc: `scripts/kernel-doc -man` run inside a kernel tree.
 * One Perl process per file costs 70 ms of start-up (ten minutes for the whole tree), so files go
 * in batches; a one-function boundary file between them splits the stream of pages back per file
 * (the script names no file in its man output). A batch whose boundaries do not all come back
 * (the script carries its state across files, so a broken comment at a file's end can swallow the
 * next one) is run again one file at a time.
 */

const BOUNDARY = 'rvt_conform_file_boundary';
const BOUNDARY_FILE = `/**\n * ${BOUNDARY}() - separates the files of one kernel-doc run\n */\nvoid ${BOUNDARY}(void);\n`;
const BATCH = 250;

/** `kernel-doc -man` output per file, keyed as asked (paths relative to the tree). */
export async function runKernelDocScript(root: string, files: readonly string[]): Promise<Map<string, string>> {
  const execa = (await import('execa')).execa;
  const dir = await mkdtemp(join(tmpdir(), 'rvt-kdoc-'));
  const boundary = join(dir, 'boundary.c');
  await writeFile(boundary, BOUNDARY_FILE);
  const man = async (batch: readonly string[]) =>
    (await execa('perl', ['scripts/kernel-doc', '-man', ...batch.flatMap((file) => [file, boundary])], { cwd: root, reject: false, maxBuffer: 1 << 30 })).stdout;
  const pages = new Map<string, string>();
  const runBatch = async (batch: readonly string[]) => {
    const split = splitAtBoundaries(await man(batch));
    if (split.length === batch.length) batch.forEach((file, i) => pages.set(file, split[i]!));
    else for (const file of batch) pages.set(file, splitAtBoundaries(await man([file]))[0] ?? '');
  };
  try {
    const batches: string[][] = [];
    for (let i = 0; i < files.length; i += BATCH) batches.push(files.slice(i, i + BATCH));
    // Two at a time: these machines have two cores.
    const queue = [...batches];
    const worker = async () => {
      for (let batch = queue.shift(); batch; batch = queue.shift()) await runBatch(batch);
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return pages;
}

/** The man text before each boundary page. */
function splitAtBoundaries(stream: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let inBoundary = false;
  for (const line of stream.split('\n')) {
    if (line.startsWith('.TH ')) {
      inBoundary = line.startsWith(`.TH "${BOUNDARY}"`);
      if (inBoundary) {
        parts.push(current.join('\n'));
        current = [];
      }
    }
    if (!inBoundary) current.push(line);
  }
  return parts;
}
