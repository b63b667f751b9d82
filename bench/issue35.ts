import { measureMatchupTrialShare } from './analysis.js';
import { measureLoadFallback } from './load-fallback.js';
import { measureParallel } from './parallel.js';
import { measureTrialTargets } from './profile.js';
import { measureStartup } from './startup.js';
import { issue35Rows, loadNow, type TargetMeasurements, type TargetRow } from './targets.js';

/**
 * Measures what issue 35's table needs and is not already in `measured` (the full bench passes the
 * parts it has measured anyway: start-up, pool scaling, the profile), in this order: start-up first,
 * while nothing of the bench's own runs beside it; the pool under load (with its spinning processes)
 * last. `quick`: fewer repetitions and shorter stretches (`npm run bench -- --targets`).
 */
export async function measureIssue35(
  quick: boolean,
  log: (line: string) => void,
  measured: TargetMeasurements = {},
): Promise<{ readonly rows: TargetRow[]; readonly measurements: TargetMeasurements; readonly seconds: Record<string, number> }> {
  const parts: { -readonly [Part in keyof TargetMeasurements]: TargetMeasurements[Part] } = { ...measured };
  /** Seconds each part took here (the parts passed in were measured before). */
  const seconds: Record<string, number> = {};
  let partStarted = performance.now();
  const took = (part: string): void => {
    const now = performance.now();
    seconds[part] = (now - partStarted) / 1000;
    log(`  issue 35: ${part} took ${seconds[part]?.toFixed(1)} s`);
    partStarted = now;
  };
  if (parts.startup === undefined) {
    const load = loadNow();
    parts.startup = { ...measureStartup(quick ? 7 : 10, log, true), load };
    took('start-up');
  }
  if (parts.scaling === undefined) {
    const load = loadNow();
    parts.scaling = { ...(await measureParallel(quick ? { shards: 48, repetitions: 2 } : { shards: 96, repetitions: 3 }, log)), load };
    took('pool scaling');
  }
  if (parts.matchups === undefined) {
    const load = loadNow();
    log('  issue 35: a 24 × 24 Warmaster round robin at ±0.01, plain and --adaptive alternating…');
    parts.matchups = { shares: await measureMatchupTrialShare({ precision: 0.01, repetitions: quick ? 1 : 3 }), load };
    took('round robin');
  }
  if (parts.trials === undefined) {
    const load = loadNow();
    parts.trials = { rows: await measureTrialTargets({ quick }, log), load };
    took('trials against their dice, bench kernels and bundled scenarios');
  }
  if (parts.underLoad === undefined) {
    const load = loadNow();
    parts.underLoad = {
      ...(await measureLoadFallback(quick ? { shards: 24, repetitions: 2 } : { shards: 48, repetitions: 3 }, log)),
      load,
    };
    took('pool under load');
  }
  return { rows: issue35Rows(parts), measurements: parts, seconds };
}
