import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LOADER_OPTIONS, PROTO_DIR, PROTO_FILE } from './protocol.js';

/**
 * Regenerates the TypeScript types of the agent protocol (adapters/grpc/generated/) with
 * proto-loader-gen-types, from the same loader options the agent and client load the .proto with.
 * Run after editing the .proto: `npm run build && node dist/adapters/grpc/generate.js`;
 * test/adapters/grpc/generated.test.ts fails while the committed types are stale.
 */

/** Next to proto/ in the sources, wherever this module runs from. */
export const GENERATED_DIR = fileURLToPath(new URL('../generated/', pathToFileURL(PROTO_DIR)));

/** The loader options as generator flags: `longs: String` becomes `--longs=String`. */
function optionFlags(): string[] {
  return Object.entries(LOADER_OPTIONS).map(([name, value]) => (value === true ? `--${name}` : `--${name}=${value.name}`));
}

export function generateTypes(outDir: string): void {
  const generator = createRequire(import.meta.url).resolve('@grpc/proto-loader/build/bin/proto-loader-gen-types.js');
  const args = [...optionFlags(), '--grpcLib=@grpc/grpc-js', '--importFileExtension=.js', '--includeComments', '-O', outDir, PROTO_FILE];
  // run from the proto directory so the generated comments name the file, not this machine's path
  execFileSync(process.execPath, [generator, ...args], { cwd: PROTO_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) generateTypes(GENERATED_DIR);
