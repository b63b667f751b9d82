/**
 * Work stopped because its caller asked (Ctrl-C on the command line: an AbortSignal), not because
 * it failed: an analysis that is interrupted keeps nothing, and says so (cli/analysis-session.ts).
 */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';

  constructor() {
    super('interrupted');
  }
}

/** Let the event loop run (a signal's handler, a timer) between pieces of work on this thread: a browser's too. */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
