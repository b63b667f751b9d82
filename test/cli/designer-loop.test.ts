import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { CHECK_Z, trialsToCatch } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The designer's loop of issue "your own rules without forking", as a designer types it: a rule
 * constant or a stat changed by one `--set` (the same as one YAML line: the field path is the
 * line's), answered by every method alike, and shown in the result's provenance.
 *
 *   - "Shields on 4+": heroic `rules.shieldSave` (the text's 5+).
 *   - "charge +2 for everyone": Warmaster `rules.chargeBonus` (the text's +1).
 *   - "DEF 4, 5, 6": a bundled unit's stat through `units.<id>.def`.
 *
 * Each is a single action, so `--method exact` gives the oracle; `mc` and `mc-dice` must agree with
 * it within CHECK_Z standard errors of their own run, with trials sized to catch a 2-point shift.
 */

const SEED = '20261122';
const TRIALS = trialsToCatch({ shift: 0.02 });
const scenario = (ruleset: string, name: string): string => path.join(REPOSITORY, 'data', ruleset, 'scenarios', `${name}.yaml`);

interface RunJson {
  readonly rulesChanged?: Record<string, unknown>;
  readonly unitsDigest: string;
  readonly method: string;
  readonly metrics: readonly {
    readonly name: string;
    readonly distribution: readonly { readonly label?: string; readonly value: number; readonly probability: number }[];
  }[];
}

async function runJson(args: readonly string[]): Promise<RunJson> {
  const { status, stdout, stderr } = await runCli(['run', ...args, '--json', '--quiet', '-w', '0']);
  expect(stderr).toBe('');
  expect(status).toBe(0);
  return JSON.parse(stdout) as RunJson;
}

/** P(metric = value) by its label (or value). */
const probability = (run: RunJson, metric: string, label: string | number): number => {
  const entry = run.metrics
    .find((summary) => summary.name === metric)
    ?.distribution.find((value) => value.label === label || value.value === label);
  return entry?.probability ?? 0;
};

/** The change under `--set`: exact differs from the text's rules, and mc, mc-dice agree with exact. */
async function expectAgreement(
  file: string,
  set: string,
  metric: string,
  label: string | number,
): Promise<{ exact: number; asWritten: number; run: RunJson }> {
  const asWritten = probability(await runJson([file, '--method', 'exact']), metric, label);
  const exact = await runJson([file, '--set', set, '--method', 'exact']);
  const p = probability(exact, metric, label);
  for (const method of ['mc', 'mc-dice']) {
    const sampled = probability(await runJson([file, '--set', set, '--method', method, '-n', String(TRIALS), '-s', SEED]), metric, label);
    const standardError = Math.sqrt((p * (1 - p)) / TRIALS);
    expect(Math.abs(sampled - p), `${set} ${method}: ${sampled} vs exact ${p}`).toBeLessThanOrEqual(CHECK_Z * standardError + 1e-12);
  }
  return { exact: p, asWritten, run: exact };
}

describe('the designer loop: one --set, every method, shown in provenance', () => {
  it('"Shields on 4+": the Ogre saves more, exact = mc = mc-dice, and the result says shieldSave 4', async () => {
    const { exact, asWritten, run } = await expectAgreement(
      scenario('heroic', 'sylvan-knights-formation'),
      'rules.shieldSave=4',
      'winner',
      'Sylvan Knights',
    );
    expect(exact).toBeLessThan(asWritten - 0.02);
    expect(run.rulesChanged).toEqual({ shieldSave: 4 });
  });

  it('"charge +2 for everyone": the chargers win the round more often, every method alike, recorded as chargeBonus 2', async () => {
    const file = scenario('warmaster', 'knights-charge-supported-orcs-first-round');
    const { exact, asWritten, run } = await expectAgreement(file, 'rules.chargeBonus=2', 'round1', 'Empire');
    expect(exact).toBeGreaterThan(asWritten + 0.02);
    expect(run.rulesChanged).toEqual({ chargeBonus: 2 });
  });

  it('"DEF 4, 5, 6": a bundled unit\'s stat changed in place — harder to hit each step, and the units hash changes with it', async () => {
    const file = scenario('heroic', 'sylvan-knights-formation');
    const runs = [];
    for (const def of [4, 5, 6]) runs.push(await expectAgreement(file, `units.ogre.def=${def}`, 'winner', 'Sylvan Knights'));
    const [four, five, six] = runs.map((entry) => entry.exact);
    expect(four).toBeGreaterThan(five ?? 1);
    expect(five).toBeGreaterThan(six ?? 1);
    expect(new Set(runs.map((entry) => entry.run.unitsDigest)).size).toBe(3);
    expect(runs.every((entry) => entry.run.rulesChanged === undefined)).toBe(true);
  });

  it("a bad --set is the scenario file's bad field, exit 2", async () => {
    const { status, stderr } = await runCli([
      'run',
      scenario('heroic', 'sylvan-knights-formation'),
      '--set',
      'rules.shieldSave=9',
      '--quiet',
    ]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/sylvan-knights-formation\.yaml: rules\.shieldSave: /);
  });
});
