import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkKernelConfig, missingOptions, parseKernelConfig, requiredOptions } from '../../vm/kernel-config.js';
import { kernelLabel, resolveKernel } from '../../vm/kernel.js';
import { isUserError } from '../../spec/errors.js';

const RELEASE = '6.12.118+deb12-amd64';
/** The config options every guest needs, as a kernel that has them all would list them. */
const GOOD_CONFIG = Object.entries(requiredOptions({ devices: ['rxe0', 'siw0', 'rvt_sim0'] }))
  .map(([name, need]) => `${name}=${need === 'y' ? 'y' : 'm'}`)
  .join('\n');

/** A staged install as Debian's packages unpacked with dpkg -x leave it: absolute build link, common headers included by an absolute path. */
function debianStaged(config = GOOD_CONFIG): string {
  const d = mkdtempSync(join(tmpdir(), 'rvt-staged-'));
  mkdirSync(join(d, 'boot'));
  writeFileSync(join(d, 'boot', `vmlinuz-${RELEASE}`), 'image');
  writeFileSync(join(d, 'boot', `config-${RELEASE}`), `${config}\n`);
  mkdirSync(join(d, 'lib/modules', RELEASE), { recursive: true });
  const headers = `/usr/src/linux-headers-${RELEASE}`;
  mkdirSync(join(d, headers), { recursive: true });
  mkdirSync(join(d, '/usr/src/linux-headers-6.12.118+deb12-common'), { recursive: true });
  writeFileSync(join(d, headers, 'Makefile'), 'include /usr/src/linux-headers-6.12.118+deb12-common/Makefile\n');
  writeFileSync(join(d, '/usr/src/linux-headers-6.12.118+deb12-common/Makefile'), '# the top Makefile\n');
  symlinkSync(headers, join(d, 'lib/modules', RELEASE, 'build'));
  return d;
}

function builtTree(): string {
  const t = mkdtempSync(join(tmpdir(), 'rvt-tree-'));
  for (const dir of ['arch/x86/boot', 'include/config', '.git/refs/heads']) mkdirSync(join(t, dir), { recursive: true });
  for (const file of ['Makefile', 'Kbuild', 'Module.symvers', 'arch/x86/boot/bzImage']) writeFileSync(join(t, file), '');
  writeFileSync(join(t, '.config'), `${GOOD_CONFIG}\nCONFIG_KASAN=y\n`);
  writeFileSync(join(t, 'include/config/kernel.release'), '6.12.118-kasan\n');
  writeFileSync(join(t, '.git/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(t, '.git/refs/heads/main'), '0123456789abcdef0123456789abcdef01234567\n');
  return t;
}

const userErrorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (isUserError(error)) return error;
    throw error;
  }
  throw new Error('expected a user error');
};

describe('the kernel to boot', () => {
  it('reads a staged install of Debian packages: the release, the image, its modules base, and the headers with the common Makefile taken from the staging folder', () => {
    const d = debianStaged();
    const kernel = resolveKernel(d);
    expect(kernel).toMatchObject({ form: 'staged', release: RELEASE, image: join(d, 'boot', `vmlinuz-${RELEASE}`), modulesBase: d });
    expect(kernel.kbuild).toEqual({ dir: join(d, `usr/src/linux-headers-${RELEASE}`), makefile: join(d, 'usr/src/linux-headers-6.12.118+deb12-common/Makefile') });
    expect(kernelLabel(kernel)).toMatch(/^6\.12\.118\+deb12-amd64 \(staged, config [0-9a-f]{12}\)$/);
  });

  it('reads a built tree: its bzImage, its own release and headers, the commit it is at, and a modules folder of its own in the cache', () => {
    const t = builtTree();
    const kernel = resolveKernel(t);
    expect(kernel).toMatchObject({ form: 'tree', release: '6.12.118-kasan', image: join(t, 'arch/x86/boot/bzImage'), kbuild: { dir: t }, sourceTree: t, describe: '0123456789ab' });
    expect(kernel.modulesBase).toMatch(/\.vm-cache\/trees\/6\.12\.118-kasan-/);
  });

  it('refuses a tree that is not built, a folder of neither form, and a release not installed, each saying what to do (exit 2)', () => {
    const t = builtTree();
    writeFileSync(join(t, 'Module.symvers'), '');
    const unbuilt = mkdtempSync(join(tmpdir(), 'rvt-tree-'));
    for (const f of ['Makefile', 'Kbuild']) writeFileSync(join(unbuilt, f), '');
    mkdirSync(join(unbuilt, 'arch'));
    expect(userErrorOf(() => resolveKernel(unbuilt)).message).toMatch(/is a kernel tree that is not built \(missing: .*bzImage/);
    expect(userErrorOf(() => resolveKernel(mkdtempSync(join(tmpdir(), 'rvt-empty-')))).message).toMatch(/neither a built kernel tree .* nor a staged install/);
    const missing = userErrorOf(() => resolveKernel('9.9.9-none'));
    expect(missing.message).toMatch(/--kernel 9\.9\.9-none: no \/boot\/vmlinuz-9\.9\.9-none/);
    expect(missing.hint).toMatch(/staged install/);
  });

  it('refuses a kernel whose config lacks what the run needs before any boot, naming every missing option and the fragment', () => {
    const d = debianStaged(GOOD_CONFIG.replace('CONFIG_RDMA_RXE=m', '# CONFIG_RDMA_RXE is not set').replace('CONFIG_9P_FS=m', ''));
    const error = userErrorOf(() => checkKernelConfig(resolveKernel(d), { devices: ['rxe0'] }));
    expect(error.message).toContain('CONFIG_RDMA_RXE=m (or y) (it is not set)');
    expect(error.message).toContain('CONFIG_9P_FS=m (or y) (it is not set)');
    expect(error.hint).toMatch(/vm\/rvt-conform\.config.*merge_config\.sh/);
    expect(() => checkKernelConfig(resolveKernel(debianStaged()), { devices: ['rxe0', 'siw0', 'rvt_sim0'] })).not.toThrow();
  });

  it('needs rdmavt as a module when it is to be replaced, and built in is enough otherwise', () => {
    const config = parseKernelConfig(`${GOOD_CONFIG.replace('CONFIG_INFINIBAND_RDMAVT=m', 'CONFIG_INFINIBAND_RDMAVT=y')}\n`);
    expect(missingOptions(config, requiredOptions({ devices: ['rvt_sim0'] }))).toEqual([]);
    expect(missingOptions(config, requiredOptions({ devices: ['rvt_sim0'], rdmavtModule: true }), ['CONFIG_INFINIBAND_RDMAVT'])).toEqual(['CONFIG_INFINIBAND_RDMAVT=m (it is y)']);
  });

  it('ships a fragment that satisfies every check', async () => {
    const { readFile } = await import('node:fs/promises');
    const fragment = parseKernelConfig(await readFile(join(process.cwd(), 'vm/rvt-conform.config'), 'utf8'));
    expect(missingOptions(fragment, requiredOptions({ devices: ['rxe0', 'siw0', 'rvt_sim0'], rdmavtModule: true }), ['CONFIG_INFINIBAND_RDMAVT'])).toEqual([]);
  });
});
