/** `-` where a command writes a file (`--out -`): standard output. */
export const STDOUT = '-';

/** Where a command writes. The real CLI passes process.stdout/stderr; tests can pass buffers. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where a progress bar may be drawn: given only when stderr is a terminal. */
  readonly progressStream?: NodeJS.WritableStream;
  /**
   * Calls `listener` on each Ctrl-C (SIGINT) or SIGTERM until the returned function is called.
   * Without it (tests), nothing interrupts a run.
   */
  readonly onInterrupt?: (listener: (signal: NodeJS.Signals) => void) => () => void;
}

/**
 * Exit statuses: 0 ok, 1 unexpected error (a crucible bug), 2 bad input (files or options), and
 * for a run stopped by a signal the shell's 128 + signal number: 130 Ctrl-C (SIGINT), 143 SIGTERM.
 */
export const EXIT_OK = 0;
export const EXIT_UNEXPECTED = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_INTERRUPTED = 130;
export const EXIT_TERMINATED = 143;
