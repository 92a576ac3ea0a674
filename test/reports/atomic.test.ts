import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverSet, writeFileAtomic, writeSetAtomic } from '../../reports/atomic.js';

/** The state a kill leaves between a swap's two renames: `out` gone, the new set and the old one hidden beside it. */
async function interruptedSwap(withFresh: boolean): Promise<{ parent: string; out: string }> {
  const parent = await mkdtemp(join(tmpdir(), 'rvt-atomic-'));
  const fresh = join(parent, '.out.set-AbC123');
  if (withFresh) {
    await mkdir(fresh);
    await writeFile(join(fresh, 'results.json'), 'new\n');
    await writeFile(join(fresh, 'fuzz.json'), 'kept\n');
  }
  await mkdir(`${fresh}-old`);
  await writeFile(join(`${fresh}-old`, 'results.json'), 'old\n');
  return { parent, out: join(parent, 'out') };
}

describe('writeSetAtomic after a kill between its two renames', () => {
  it('puts the new set back (it was whole)', async () => {
    const { out } = await interruptedSwap(true);
    await recoverSet(out);
    expect(await readFile(join(out, 'results.json'), 'utf8')).toBe('new\n');
  });

  it('is recovered by the next write, which keeps what that set carried', async () => {
    const { parent, out } = await interruptedSwap(true);
    await writeSetAtomic(out, new Map([['results.json', 'newer\n']]), ['results.json']);
    expect(await readdir(parent)).toEqual(['out']);
    expect((await readdir(out)).sort()).toEqual(['fuzz.json', 'results.json']);
    expect(await readFile(join(out, 'results.json'), 'utf8')).toBe('newer\n');
  });

  it('puts the old set back when only it is left, before a write replaces it', async () => {
    const { out } = await interruptedSwap(false);
    await recoverSet(out);
    expect(await readFile(join(out, 'results.json'), 'utf8')).toBe('old\n');
  });

  it('leaves a set in its place alone', async () => {
    const { parent, out } = await interruptedSwap(true);
    await mkdir(out);
    await recoverSet(out);
    expect((await readdir(parent)).sort()).toEqual(['.out.set-AbC123', '.out.set-AbC123-old', 'out']);
    expect(await readdir(out)).toEqual([]);
  });
});

describe('writeSetAtomic', () => {
  it("leaves the folder's and the files' modes to the umask, so other users (CI's collectors) can read them", async () => {
    const parent = await mkdtemp(join(tmpdir(), 'rvt-atomic-'));
    const before = process.umask(0o022);
    try {
      await writeSetAtomic(join(parent, 'out'), new Map([['results.json', '{}\n']]), ['results.json']);
      await writeFileAtomic(join(parent, 'out', 'fuzz.json'), '{}\n');
    } finally {
      process.umask(before);
    }
    expect((await stat(join(parent, 'out'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(parent, 'out', 'results.json'))).mode & 0o777).toBe(0o644);
    expect((await stat(join(parent, 'out', 'fuzz.json'))).mode & 0o777).toBe(0o644);
  });
});
