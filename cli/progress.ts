import { createRequire } from 'node:module';
import { groupThousands } from '../input/thousands.js';

/** cli-progress, required when a bar is first drawn: most runs draw none (--json, --quiet, a pipe, a test). */
const require = createRequire(import.meta.url);
const progressBars = (): typeof import('cli-progress') => require('cli-progress') as typeof import('cli-progress');

/**
 * The one progress display of every command (run's bar; compare, sweep, matchups and balance the
 * same), drawn with cli-progress on stderr when stderr is a terminal (the caller decides: never with
 * --json or --quiet, never into a pipe): `label [bar] 42% | 12/400 runs | 3 runs/s | 2m 10s left`,
 * or, for work of no known size (a price search), `label 37 runs | 2 runs/s | 1m 05s so far`. Rate
 * and time left are computed here rather than by cli-progress, which would count the pool's start-up
 * and a resumed run's head start. The bar is cleared when stopped: the terminal is left as it was,
 * cursor included (it is never hidden), whether the work ends, fails or is interrupted.
 */
export interface ProgressUpdate {
  readonly trialsDone: number;
  /** The bar's 100%: the trials planned, or under --precision the estimated trials needed; 0: not known. */
  readonly trialsPlanned: number;
  /** Extra text after the time left, e.g. the current widest interval. */
  readonly note?: string;
}

export interface ProgressDisplay {
  /** Draw the bar before any shard is done (the rate is unknown yet). */
  begin(progress: ProgressUpdate): void;
  update(progress: ProgressUpdate): void;
  /** Clear the bar for good: later updates (shards finishing after Ctrl-C) draw nothing. */
  stop(): void;
}

/** 75 → "1m 15s"; 4000 → "1h 06m"; unknown → "?". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m ${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

const RATE_WINDOW_SECONDS = 10;

/** 12,345; 3.4M; a rate under 10 a second with its tenth (0.8 runs/s). */
const compact = (value: number): string =>
  value >= 1e6
    ? `${(value / 1e6).toFixed(value >= 1e8 ? 0 : 1)}M`
    : value < 10 && !Number.isInteger(value)
      ? value.toFixed(1)
      : groupThousands(Math.round(value));

/** `unit`: what is counted (trials, runs, points). */
export function createProgressBar(stream: NodeJS.WritableStream, label: string, unit = 'trials'): ProgressDisplay {
  const sized = `${label} [{bar}] {percentage}% | {done}/{planned} ${unit} | {rate} ${unit}/s | {left} left{note}`;
  const open = `${label} {done} ${unit} | {rate} ${unit}/s | {elapsed} so far{note}`;
  const started = performance.now() / 1000;
  const cliProgress = progressBars();
  const bar = new cliProgress.SingleBar({
    stream,
    format: (options, params, payload: Record<string, string>) =>
      // cli-progress's own formatter (a CommonJS module: its Format is reached through the default export).
      cliProgress.Format.Formatter({ ...options, format: payload.planned === '' ? open : sized }, params, {
        ...payload,
        elapsed: formatDuration(performance.now() / 1000 - started),
      }),
    barsize: 24,
    clearOnComplete: true,
    hideCursor: false,
    // cli-progress's own SIGINT handling would race ours; the run stops the bar itself.
    gracefulExit: false,
  });
  // The rate over the last RATE_WINDOW_SECONDS of updates, from the first shard done on: it leaves
  // out the pool's start-up and a resumed run's head start, and follows the machine's load.
  const samples: { readonly seconds: number; readonly trials: number }[] = [];
  let state: 'new' | 'drawn' | 'stopped' = 'new';
  const draw = (trialsDone: number, trialsPlanned: number, payload: Record<string, string>): void => {
    if (state === 'stopped') return;
    if (state === 'new') bar.start(trialsPlanned, trialsDone, payload);
    else {
      bar.setTotal(trialsPlanned);
      bar.update(trialsDone, payload);
    }
    state = 'drawn';
  };
  const planned = (trialsPlanned: number): string => (trialsPlanned > 0 ? compact(trialsPlanned) : '');
  return {
    begin({ trialsDone, trialsPlanned, note }) {
      draw(trialsDone, trialsPlanned, {
        done: compact(trialsDone),
        planned: planned(trialsPlanned),
        rate: '?',
        left: '?',
        note: note ?? '',
      });
    },
    update({ trialsDone, trialsPlanned, note }) {
      const now = performance.now() / 1000;
      samples.push({ seconds: now, trials: trialsDone });
      while (samples.length > 2 && now - (samples[0]?.seconds ?? now) > RATE_WINDOW_SECONDS) samples.shift();
      const oldest = samples[0] ?? { seconds: now, trials: trialsDone };
      const rate = now > oldest.seconds ? (trialsDone - oldest.trials) / (now - oldest.seconds) : 0;
      const left = rate > 0 ? (trialsPlanned - trialsDone) / rate : Number.NaN;
      draw(trialsDone, trialsPlanned, {
        done: compact(trialsDone),
        planned: planned(trialsPlanned),
        rate: rate > 0 ? compact(rate) : '?',
        left: formatDuration(left),
        note: note ?? '',
      });
    },
    stop() {
      if (state === 'drawn') bar.stop();
      state = 'stopped';
    },
  };
}
