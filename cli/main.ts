#!/usr/bin/env node
import { allocatorEnvironment, runAgain, startsAgent, stopWithStarter } from './agent-allocator.js';
import { dropIpServerNameWarning } from './ip-servername-warning.js';
import { main } from './program.js';

// A reader that stops early (`list --json | head`) closes the pipe: what is left is not wanted, so end quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit();
});

// An agent serves from a second process, under glibc settings of its own (agent-allocator.ts),
// started before any command is loaded: this one's memory is the agent's too while it waits.
const again = startsAgent(process.argv) ? allocatorEnvironment(process.env) : undefined;
if (again !== undefined) {
  process.exitCode = await runAgain(again);
} else {
  if (startsAgent(process.argv)) stopWithStarter();
  dropIpServerNameWarning();
  await main(process.argv);
}
