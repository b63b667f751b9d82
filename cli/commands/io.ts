/** Where a command writes. The real CLI passes process.stdout/stderr; tests can pass buffers. */
export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Exit statuses: 0 ok, 1 unexpected error (a crucible bug), 2 bad input (files or options). */
export const EXIT_OK = 0;
export const EXIT_UNEXPECTED = 1;
export const EXIT_BAD_INPUT = 2;
