import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import type { GuestKernel } from './kernel.js';

export interface ModuleBuild {
  /** The folder with the module's sources and its Kbuild file. */
  sourceDir: string;
  /** Extra `make` variables, e.g. `CONFIG_RDMA_SIW=m`. */
  makeArgs?: readonly string[];
  /** Module.symvers files of modules this one links against (KBUILD_EXTRA_SYMBOLS). */
  extraSymbols?: readonly string[];
}

export interface BuiltModule {
  /** The .ko files the build produced, by module name. */
  modules: Record<string, string>;
  /** The build's Module.symvers, for modules built on top of it. */
  symvers: string;
  /** Whether this call compiled it (false: it came from the cache). */
  built: boolean;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /(\.[ch]|^Kbuild|^Makefile)$/.test(e.name))
    .map((e) => e.name)
    .sort();
}

/**
 * Builds an out-of-tree kernel module against the guest kernel's headers, in a copy of its
 * sources under the VM cache (so the source folder may be read-only), and caches the result by
 * everything that goes into it: the sources, the kernel, the make arguments and the symbols it
 * links against. A failed build is a UserError carrying the compiler's output.
 */
export async function buildModule(kernel: GuestKernel, cacheDir: string, build: ModuleBuild): Promise<BuiltModule> {
  const files = await sourceFiles(build.sourceDir);
  if (files.length === 0) throw new UserError(`no kernel module sources (*.c, *.h, Kbuild, Makefile) in ${build.sourceDir}`);
  const hash = createHash('sha256').update(JSON.stringify([kernel.release, kernel.fingerprint, kernel.kbuild, build.makeArgs ?? []]));
  for (const file of files) hash.update(file).update(await readFile(join(build.sourceDir, file)));
  for (const symvers of build.extraSymbols ?? []) hash.update(await readFile(symvers));
  const key = hash.digest('hex').slice(0, 16);
  const outDir = join(cacheDir, kernel.release, 'modules', `${basename(build.sourceDir)}-${key}`);
  if (existsSync(join(outDir, 'Module.symvers'))) return { ...(await builtIn(outDir)), built: false };

  const workDir = `${outDir}.tmp-${process.pid}`;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(workDir, { recursive: true });
  try {
    for (const file of files) await cp(join(build.sourceDir, file), join(workDir, file));
    const extra = build.extraSymbols?.length ? [`KBUILD_EXTRA_SYMBOLS=${build.extraSymbols.join(' ')}`] : [];
    const makefile = kernel.kbuild.makefile === undefined ? [] : ['-f', kernel.kbuild.makefile];
    const result = await execa('make', ['-C', kernel.kbuild.dir, ...makefile, `M=${workDir}`, ...(build.makeArgs ?? []), ...extra, 'modules'], {
      reject: false,
      all: true,
    });
    if (result.exitCode !== 0) {
      throw new UserError(`building the kernel module in ${build.sourceDir} against ${kernel.release} failed:\n${result.all ?? ''}`, {
        hint: 'fix the compiler errors above (the build ran in a copy of the sources under .vm-cache)',
      });
    }
    await rm(outDir, { recursive: true, force: true });
    await rename(workDir, outDir);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return { ...(await builtIn(outDir)), built: true };
}

async function builtIn(dir: string): Promise<Omit<BuiltModule, 'built'>> {
  const modules: Record<string, string> = {};
  for (const name of await readdir(dir)) if (name.endsWith('.ko')) modules[name.slice(0, -3)] = join(dir, name);
  return { modules, symvers: join(dir, 'Module.symvers') };
}
