import { afterAll, describe, expect, it } from 'vitest';
import { runReportJson } from '../../documents/format.js';
import { loadScenarioFile, runScenario } from '../../index.js';
import type { Method } from '../../sim/methods.js';
import { ShardPool } from '../../sim/shard-pool.js';
import { metricSummaryJson } from '../../statistics/summary.js';
import { computeOdds, type OddsUpdate } from '../../web/compute/odds.js';
import { runCli } from '../helpers/capture.js';

/**
 * One run pipeline (sim/run-scenario.ts), three faces: `crucible run --json`, the API's
 * `runScenario` and the workbench's odds (web/compute/odds.ts, here on a worker-thread pool in
 * place of the page's Web Workers) give the same numbers for the same scenario, seed, trials and
 * method — and the same `auto`: exact for a single action, unless trials are asked for.
 */

/** A chain (an engagement to its end): Monte Carlo under every method but exact. */
const ENGAGEMENT = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
/** A single attack: exact under `auto` when no trials are asked for. */
const SINGLE_ATTACK = 'data/heroic/scenarios/uldar-splits-dice.yaml';

const pool = new ShardPool(2);
afterAll(() => pool.close(true));

/** The workbench's final update for `file`, computed as the page computes it. */
async function workbenchOdds(file: string, settings: { method: Method; seed?: number; trials?: number }): Promise<OddsUpdate> {
  let last: OddsUpdate | undefined;
  await computeOdds(await loadScenarioFile(file), settings, pool, new AbortController().signal, (update) => {
    last = update;
  });
  if (last?.done !== true) throw new Error('the odds never finished');
  return last;
}

const documentText = (update: OddsUpdate): string => `${JSON.stringify(runReportJson(update.report), null, 2)}\n`;

async function cliJson(
  args: readonly string[],
): Promise<{ text: string; document: { method: string; seed?: number; trials?: number; metrics: unknown[] } }> {
  const run = await runCli(['run', ...args, '--json', '--quiet']);
  expect(run.status, run.stderr).toBe(0);
  return { text: run.stdout, document: JSON.parse(run.stdout) as { method: string; seed?: number; trials?: number; metrics: unknown[] } };
}

describe('crucible run, runScenario and the workbench agree', () => {
  it('Monte Carlo over several shards, both draw methods: the same document, byte for byte, and the same numbers from the API', async () => {
    for (const method of ['mc', 'mc-dice'] as const) {
      const cli = await cliJson([ENGAGEMENT, '--trials', '150000', '--seed', '11', '--method', method, '--workers', '2']);
      expect(cli.document).toMatchObject({ method, seed: 11, trials: 150_000 });
      const api = await runScenario(await loadScenarioFile(ENGAGEMENT), { method, trials: 150_000, seed: 11, executor: pool });
      expect(api.trials).toBe(150_000);
      expect(api.summary.map((summary) => metricSummaryJson(summary, false))).toEqual(cli.document.metrics);
      expect(documentText(await workbenchOdds(ENGAGEMENT, { method, seed: 11, trials: 150_000 }))).toBe(cli.text);
    }
  });

  it('auto: a single action is answered exactly by all three; with trials asked for, by Monte Carlo in all three', async () => {
    const exact = await cliJson([SINGLE_ATTACK]);
    expect(exact.document.method).toBe('exact');
    const api = await runScenario(await loadScenarioFile(SINGLE_ATTACK), { method: 'auto' });
    expect(api.method).toBe('exact');
    expect(api.summary.map((summary) => metricSummaryJson(summary, true))).toEqual(exact.document.metrics);
    expect(documentText(await workbenchOdds(SINGLE_ATTACK, { method: 'auto' }))).toBe(exact.text);

    const sampled = await cliJson([SINGLE_ATTACK, '--trials', '20000']);
    expect(sampled.document.method).toBe('mc');
    expect((await runScenario(await loadScenarioFile(SINGLE_ATTACK), { method: 'auto', trials: 20_000 })).method).toBe('mc');
    expect(documentText(await workbenchOdds(SINGLE_ATTACK, { method: 'auto', trials: 20_000 }))).toBe(sampled.text);
  });
});
