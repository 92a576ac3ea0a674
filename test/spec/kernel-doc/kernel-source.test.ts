import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../spec/errors.js';
import { kernelVersionFromMakefile, openKernelSource, RDMAVT_DIR } from '../../../spec/kernel-doc/kernel-source.js';

const MAKEFILE = 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION = -rc3\nNAME = Test\n';
const QP_C = '/**\n * rvt_qp_exit - clean up qps on device exit\n * @rdi: rvt dev structure\n */\nvoid rvt_qp_exit(struct rvt_dev_info *rdi)\n{\n}\n';
const SRQ_C = '// srq.c\n';

/** A kernel tree `linux-test/` in a temp dir, plus tarballs of it. */
async function makeTree(dir: string, name: string, files: Record<string, string | Buffer>): Promise<string> {
  const root = join(dir, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

/** Rejects with a UserError whose message matches, and which says what to do (a hint). */
async function expectUserError(action: () => Promise<unknown>, message: RegExp): Promise<UserError> {
  const error = await action().then(
    () => expect.unreachable('expected a UserError'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UserError);
  expect((error as UserError).message).toMatch(message);
  return error as UserError;
}

describe('openKernelSource', () => {
  let dir = '';
  let tree = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-kernel-source-'));
    tree = await makeTree(dir, 'linux-test', {
      Makefile: MAKEFILE,
      [`${RDMAVT_DIR}/qp.c`]: QP_C,
      [`${RDMAVT_DIR}/srq.c`]: SRQ_C,
    });
    await execa('tar', ['-cJf', join(dir, 'linux-test.tar.xz'), '-C', dir, 'linux-test']);
    await execa('tar', ['-cf', join(dir, 'linux-test.tar'), '-C', dir, 'linux-test']);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads files and the version from a tree directory', async () => {
    const source = await openKernelSource(tree);
    expect(source.kind).toBe('tree');
    const files = await source.readFiles([`${RDMAVT_DIR}/qp.c`, `${RDMAVT_DIR}/srq.c`]);
    expect(Object.fromEntries(files)).toEqual({ [`${RDMAVT_DIR}/qp.c`]: QP_C, [`${RDMAVT_DIR}/srq.c`]: SRQ_C });
    expect(await source.version()).toBe('6.1.0-rc3');
  });

  it.each(['linux-test.tar.xz', 'linux-test.tar'])('reads the same from a tarball (%s), several members in one pass', async (name) => {
    const source = await openKernelSource(join(dir, name));
    expect(source.kind).toBe('tarball');
    const files = await source.readFiles(['Makefile', `${RDMAVT_DIR}/srq.c`, `${RDMAVT_DIR}/qp.c`]);
    expect([...files.keys()]).toEqual(['Makefile', `${RDMAVT_DIR}/srq.c`, `${RDMAVT_DIR}/qp.c`]);
    expect(files.get(`${RDMAVT_DIR}/qp.c`)).toBe(QP_C);
    expect(await source.readFile(`${RDMAVT_DIR}/srq.c`)).toBe(SRQ_C);
    expect(await source.version()).toBe('6.1.0-rc3');
  });

  it('reports a truncated tarball', async () => {
    const whole = await readFile(join(dir, 'linux-test.tar.xz'));
    const truncated = join(dir, 'truncated.tar.xz');
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2))); // as `head -c`
    const error = await expectUserError(
      async () => (await openKernelSource(truncated)).readFiles([`${RDMAVT_DIR}/qp.c`]),
      /truncated\.tar\.xz is truncated or corrupt/,
    );
    expect(error.hint).toMatch(/reinstall/);
  });

  it('reports a missing path', async () => {
    const error = await expectUserError(() => openKernelSource(join(dir, 'nope')), /Kernel source not found: .*nope does not exist/);
    expect(error.hint).toMatch(/linux-source-6\.1\.tar\.xz/);
  });

  it('reports a file that is neither a tree nor a tarball', async () => {
    await expectUserError(
      () => openKernelSource(join(tree, RDMAVT_DIR, 'qp.c')),
      /qp\.c is neither a kernel tree directory nor a \.tar\/\.tar\.xz tarball/,
    );
  });

  it('reports a tree or a tarball without rdmavt', async () => {
    const bare = await makeTree(dir, 'linux-bare', { Makefile: MAKEFILE });
    await expectUserError(() => openKernelSource(bare), /linux-bare is not a kernel tree with rdmavt: .*rdmavt does not exist/);
    await execa('tar', ['-cJf', join(dir, 'bare.tar.xz'), '-C', dir, 'linux-bare']);
    await expectUserError(
      async () => (await openKernelSource(join(dir, 'bare.tar.xz'))).readFiles([`${RDMAVT_DIR}/qp.c`]),
      /bare\.tar\.xz has no drivers\/infiniband\/sw\/rdmavt\/qp\.c \(looked under 'linux-bare\/'\)/,
    );
  });

  it('reports a C file that is not C (binary), and a missing file', async () => {
    const odd = await makeTree(dir, 'linux-odd', { [`${RDMAVT_DIR}/qp.c`]: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]) });
    const source = await openKernelSource(odd);
    await expectUserError(() => source.readFile(`${RDMAVT_DIR}/qp.c`), /qp\.c is not a C source file: it holds binary data/);
    await expectUserError(() => source.readFile(`${RDMAVT_DIR}/srq.c`), /Cannot read .*srq\.c from the kernel tree .*ENOENT/);
    await expectUserError(() => source.readFile('../etc/passwd'), /not a path inside the kernel source/);
  });
});

describe('kernelVersionFromMakefile', () => {
  it('follows the Makefile\u2019s KERNELVERSION', () => {
    expect(kernelVersionFromMakefile('VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n', 'M')).toBe('6.1.192');
    expect(kernelVersionFromMakefile('VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL =\nEXTRAVERSION = -rc1\n', 'M')).toBe('6.1-rc1');
  });

  it('rejects a file that is not the top Makefile', () => {
    expect(() => kernelVersionFromMakefile('all:\n\techo\n', 'x/Makefile')).toThrow(/x\/Makefile has no VERSION line/);
  });
});
