import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { cachedFile } from '../vm/cache.js';
import { installHint, projectRoot, vmCacheDir } from '../vm/project-root.js';

/** The relay's source: the VM's side of the host's rvtc sessions (adapters/kernel/relay-frames.ts). */
export const RELAY_SOURCE = 'guest/relay/rvtc-relay.c';

/**
 * The relay built for the guest (whose root is this host's, so the host's compiler and C library
 * serve it), cached under the VM cache by its source's digest. A missing compiler is the user's to install.
 */
export async function relayProgram(cacheDir: string = vmCacheDir()): Promise<string> {
  const source = join(projectRoot(), RELAY_SOURCE);
  const digest = createHash('sha256').update(await readFile(source)).digest('hex').slice(0, 16);
  return cachedFile(join(cacheDir, 'relay', `rvtc-relay-${digest}`), async (tmp) => {
    const built = await execa('cc', ['-std=gnu11', '-Wall', '-O2', '-o', tmp, source, '-lpthread'], { reject: false, all: true });
    if (built.failed) {
      const why = built.exitCode === undefined ? 'there is no C compiler (cc)' : `cc failed:\n${built.all ?? ''}`;
      throw new UserError(`the VM's rvtc relay (${RELAY_SOURCE}) could not be built: ${why}`, { hint: `install a C compiler (${installHint()})` });
    }
  });
}
