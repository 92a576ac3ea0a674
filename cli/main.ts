#!/usr/bin/env node
import { dropIpServerNameWarning } from './ip-servername-warning.js';
import { main } from './program.js';

// A reader that stops early (`list --json | head`) closes the pipe: what is left is not wanted, so end quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit();
});

dropIpServerNameWarning();
await main(process.argv);
