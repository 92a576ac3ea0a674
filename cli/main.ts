#!/usr/bin/env node
import { main } from './program.js';

// A reader that stops early (`list --json | head`) closes the pipe: what is left is not wanted, so end quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit();
});

await main(process.argv);
