import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_DIR, generateTypes } from '../../../adapters/grpc/generate.js';

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return new Map(await Promise.all(files.map(async (f) => [relative(dir, f), await readFile(f, 'utf8')] as const)));
}

describe('generated protocol types', () => {
  it('are what proto-loader-gen-types makes of the .proto now (regenerate: node dist/adapters/grpc/generate.js)', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'rvt-grpc-gen-'));
    generateTypes(fresh);
    const committed = await filesUnder(GENERATED_DIR);
    const regenerated = await filesUnder(fresh);
    expect([...committed.keys()].sort()).toEqual([...regenerated.keys()].sort());
    for (const [file, text] of regenerated) expect(committed.get(file), file).toBe(text);
  });
});
