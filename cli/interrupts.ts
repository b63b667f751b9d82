import type { Io } from './commands/io.js';

/**
 * Ctrl-C during a run, in two steps: the first asks the run to finish the shards in flight, save
 * and stop (`finish`); a second one stops waiting for them (`drop`) — what is already merged is
 * still saved. A third leaves at once, with the checkpoint as the last save left it.
 */
export interface Interrupts {
  readonly finish: AbortSignal;
  readonly drop: AbortSignal;
  /** The signal that started the interruption, if any. */
  readonly signal: () => NodeJS.Signals | undefined;
  /** Stop listening (the run is over). */
  readonly release: () => void;
}

export function listenForInterrupts(io: Io, onFirst: () => void, onSecond: () => void): Interrupts {
  const finish = new AbortController();
  const drop = new AbortController();
  let first: NodeJS.Signals | undefined;
  let count = 0;
  const release =
    io.onInterrupt?.((signal) => {
      count++;
      // Abort first: its listeners take the progress bar down before the message is printed.
      if (count === 1) {
        first = signal;
        finish.abort();
        onFirst();
      } else if (count === 2) {
        drop.abort();
        onSecond();
      } else process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    }) ?? (() => {});
  return { finish: finish.signal, drop: drop.signal, signal: () => first, release };
}
