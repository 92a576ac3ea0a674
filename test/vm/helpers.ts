import { Writable } from 'node:stream';
import { missingVmPrerequisite } from '../../vm/prerequisites.js';
import { type VmRunOptions, runInVm } from '../../vm/run.js';

/** A whole VM cycle takes 10-25 s under TCG; allow for a slow or busy machine. */
export const VM_TEST_TIMEOUT_MS = 300_000;

/** Why the VM tests cannot run here (shown as the skipped suite's title), or undefined. */
export const vmSkipReason = await missingVmPrerequisite();

/** A sink for the guest command's output that keeps it as text. */
export function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Runs a shell script in the VM (in `workDir`) and throws with its output unless it exits 0. */
export async function runGuestScript(script: string, options: Omit<VmRunOptions, 'command' | 'timeoutMs' | 'stdout' | 'stderr'>): Promise<void> {
  const output = collector();
  const result = await runInVm({ ...options, command: ['sh', '-c', script], timeoutMs: VM_TEST_TIMEOUT_MS, stdout: output.stream, stderr: output.stream });
  if (result.exitCode !== 0) throw new Error(`the guest script failed (${result.exitCode}): ${output.text()}`);
}
