import type { RunEvent } from '../suites/runner.js';

/**
 * Progress while a run goes: on a terminal one live line (done / total, current case, failures
 * so far); without a terminal, or in CI, one plain line per finished case; nothing when quiet.
 */
export function progressPrinter(stream: NodeJS.WriteStream, mode: 'live' | 'plain' | 'quiet'): (event: RunEvent) => void {
  let failures = 0;
  return (event) => {
    if (mode === 'quiet') return;
    if (event.type === 'case-start') {
      if (mode === 'live') stream.write(`\r\x1b[K[${event.index}/${event.total}] ${failures} failing  ${event.case.id}`);
      return;
    }
    if (event.run.status === 'fail' || event.run.status === 'error') failures++;
    if (mode === 'plain') stream.write(`[${event.index + 1}/${event.total}] ${event.run.status.padEnd(14)} ${event.run.case.id}\n`);
    if (mode === 'live' && event.index + 1 === event.total) stream.write('\r\x1b[K');
  };
}

export function progressMode(quiet: boolean): 'live' | 'plain' | 'quiet' {
  if (quiet) return 'quiet';
  return process.stderr.isTTY && !process.env.CI ? 'live' : 'plain';
}
