import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Command } from 'commander';
import { projectRoot } from '../../vm/project-root.js';

/** The native addon's build script, where this package is (a checkout or an installed package). */
const buildScript = () => join(projectRoot(), 'adapters/ibverbs/native/build.mjs');

/** Runs the addon's build; its exit status is the command's (0 built, 1 the build failed, 2 a prerequisite is missing). */
function buildNative(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [buildScript()], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 2)));
  });
}

export function registerBuildNativeCommand(program: Command): void {
  program
    .command('build-native')
    .description('build the native libibverbs addon that --adapter ibverbs uses (needs libibverbs-dev and a C/C++ compiler; never downloads anything)')
    .action(async () => {
      process.exitCode = await buildNative();
    });
}
