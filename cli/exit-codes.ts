/** The exit codes, as `--help` lists them: cli/program.ts and the commands set them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0    the gate passed (or the command did what it was asked)
  1    the gate failed
  2    bad usage or input, or the infrastructure (an agent, the VM) gone or unusable
  4    kselftest only: skipped, the implementation cannot be reached on this machine
  124  the VM did not finish in its time and was killed
  130  interrupted by Ctrl-C (SIGINT), 143 by SIGTERM: the results so far are written`;
