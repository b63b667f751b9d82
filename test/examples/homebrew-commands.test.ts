import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointsPerModel, unitsFileSchema } from '../../examples/homebrew/index.js';
import { type CliRun, runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * (b) Every command on the example plugin (examples/homebrew), in process through `runCli`, as a
 * designer runs them in its tutorial. Small trial counts: what is checked here is that each command
 * works on a plugin and says the right things; the numbers are checked in homebrew.test.ts (with
 * (c), the checkpoint of a changed plugin, which needs a second process).
 */
const SEED = '20261122';
const PLUGIN = path.join(REPOSITORY, 'examples', 'homebrew');
const scenario = (name: string): string => path.join(PLUGIN, 'scenarios', `${name}.yaml`);
const ROSTER = path.join(PLUGIN, 'rosters', 'skirmish.yaml');
/** The example's module, trusted as its tutorial says; without it a plugin's scenario is refused (test/sim/plugin-trust.test.ts). */
const TRUST = ['--plugin', path.join(PLUGIN, 'index.ts')];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-homebrew-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `crucible <args> --plugin …/index.ts`; schema's --plugin is its own option, given by the test. */
async function ok(...args: string[]): Promise<CliRun> {
  const result = await runCli(args[0] === 'schema' ? args : [...args, ...TRUST]);
  expect(result.status, `crucible ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result;
}

describe('(b) every command runs on the plugin', () => {
  it('run: auto gives the exact answer of one attack, and Monte Carlo for a fight', async () => {
    const attack = await ok('run', scenario('volley'));
    expect(attack.stdout).toContain('ruleset  homebrew (engine homebrew-1.0.0), mode attack');
    expect(attack.stdout).toMatch(/plugin {3}\.\.\/index\.ts \(homebrew homebrew-1\.0\.0, code sha256 [0-9a-f]{12}\)/);
    expect(attack.stdout).toMatch(/method {3}exact: every outcome enumerated \(21 paths/);
    const fight = await ok('run', scenario('knights-vs-brutes'), '--method', 'auto', '-n', '20000', '-s', SEED);
    expect(fight.stdout).toContain('method   Monte Carlo (outcomes drawn from exact tables)');
    const dice = await ok('run', scenario('knights-vs-brutes'), '--method', 'mc-dice', '-n', '20000', '-s', SEED);
    expect(dice.stdout).toContain('method   Monte Carlo (every die rolled)');
    const exact = await ok('run', scenario('knights-vs-brutes'), '--method', 'exact');
    expect(exact.stdout).toMatch(/exact: every outcome enumerated \(120,052 paths/);
  });

  it('run --workers 2 prints what one thread prints; --checkpoint resumes a finished run; --precision stops when reached', async () => {
    // The suite's one worker pool of a run (the analysis commands below start their own: see -w 1 there).
    const args = ['run', scenario('knights-vs-brutes'), '-n', '131072', '-s', SEED, '-q'];
    const [pooled, alone] = [await ok(...args, '--workers', '2'), await ok(...args, '--workers', '0')];
    expect(pooled.stdout).toBe(alone.stdout);
    const checkpoint = path.join(root, 'fight.ckpt');
    expect((await ok(...args, '--checkpoint', checkpoint)).stdout).toBe(alone.stdout);
    expect((await ok(...args, '--checkpoint', checkpoint)).stdout).toBe(alone.stdout);
    const precise = await ok('run', scenario('knights-vs-brutes'), '--precision', '0.01', '-s', SEED, '-q', '--workers', '0');
    expect(precise.stdout).toMatch(/precision ±1\.000% reached/);
  });

  it('replay shows one trial: totals drawn whole with mc, every face with mc-dice', async () => {
    const drawn = await ok('replay', scenario('knights-vs-brutes'), '--trial', '3');
    expect(drawn.stdout).toContain('unsaved wounds (drawn whole');
    expect(drawn.stdout).toMatch(/^end after \d rounds?: (winner (Knights|Brutes)|no winner)$/m);
    const rolled = await ok('replay', scenario('knights-vs-brutes'), '--trial', '3', '--method', 'mc-dice');
    expect(rolled.stdout).toMatch(/^ {4}hit 3\+, critical 6\+: [1-6]( [1-6])* → \d+ hits? \(\d+ critical\)$/m);
    expect(rolled.stdout).toMatch(/^ {4}save 6\+: /m);
  });

  // sweep, matchups and balance always start a worker pool (their `-w 0` fails today): one worker each.
  it('compare runs a declared variant on the same dice; sweep runs a rule knob over its values', async () => {
    const compared = await ok('compare', scenario('veterans-criticals'), '--variant', 'extra-hits', '-n', '20000', '-s', SEED);
    expect(compared.stdout).toMatch(/^outcome +\(as written\) {2}extra-hits {2}extra-hits − \(as written\) {2}/m);
    expect(compared.stdout).toMatch(
      /^The side that destroyed the other, or none: Veterans +\d+\.\d\d% +\d+\.\d\d% +[+-]\d+\.\d\d pts {2}/m,
    );
    const swept = await ok(
      'sweep',
      scenario('volley'),
      '--set',
      'rules.criticalFace=5,6',
      '--metric',
      'winner',
      '-n',
      '5000',
      '-s',
      SEED,
      '-w',
      '0',
    );
    expect(swept.stdout).toContain('sweep of Critical face');
    expect(swept.stdout).toMatch(/^critical face +none +Line Infantry$/m);
    expect(swept.stdout).toMatch(/^ +5 +\d+\.\d\d% \[[\d.]+%, [\d.]+%\] +\d+\.\d\d% \[/m);
    expect(swept.stdout).toMatch(/^ +6 +\d+\.\d\d% \[[\d.]+%, [\d.]+%\] +\d+\.\d\d% \[/m);
  });

  it('matchups and balance play the roster', async () => {
    const matrix = await ok('matchups', ROSTER, '--only', 'militia', 'brute', '-n', '1000', '-s', SEED, '-w', '0');
    expect(matrix.stdout).toMatch(/^row \\ column {2,}Militia {2,}Brutes$/m);
    // The plugin's sides are told apart by name: a mirror is exactly ½ over both seatings.
    expect(matrix.stdout).toMatch(/^Militia {2,}50% {2,}/m);
    const fitted = await ok(
      'balance',
      'knight',
      '--against',
      ROSTER,
      '--budget',
      '40',
      '--only',
      'knight',
      'brute',
      '-p',
      '0.05',
      '-s',
      SEED,
      '-w',
      '0',
    );
    expect(fitted.stdout).toMatch(/^Knights {2,}18 {2,}[\d.]+ {2,}/m);
  });

  it('report makes a page of exact and Monte Carlo results', async () => {
    const exact = await ok('run', scenario('volley'), '--json');
    const sampled = await ok('run', scenario('knights-vs-brutes'), '-n', '10000', '-s', SEED, '--json');
    const results = path.join(root, 'results.json');
    await writeFile(results, `${exact.stdout}\n${sampled.stdout}`);
    const out = path.join(root, 'reports');
    const report = await ok('report', results, '--out', out, '--title', 'Homebrew', '--slug', 'homebrew');
    expect(report.stdout).toContain('homebrew.html');
    const page = await readFile(path.join(out, 'homebrew.html'), 'utf8');
    expect(page).toContain('Ten Line Infantry attack three Brutes');
    expect(page).toContain('Three Knights fight three Brutes');
  });

  it('validate checks every scenario and variant; a bad field is exit 2 naming file and field', async () => {
    const valid = await ok('validate', path.join(PLUGIN, 'scenarios'));
    expect(valid.stdout.trim().split('\n')).toHaveLength(3);
    const bad = path.join(root, 'bad.yaml');
    await writeFile(
      bad,
      `ruleset: ${path.join(PLUGIN, 'index.ts')}\nname: bad\nunitsFile: ${path.join(PLUGIN, 'units.yaml')}\nsides:\n  - { name: A, unit: brutes, models: 3 }\n  - { name: B, unit: knight, models: 0 }\n`,
    );
    const result = await runCli(['validate', bad, ...TRUST]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${bad}: sides[1].models:`);
    const unknown = path.join(root, 'unknown-unit.yaml');
    await writeFile(unknown, (await readFile(bad, 'utf8')).replace('models: 0', 'models: 2'));
    expect((await runCli(['validate', unknown, ...TRUST])).stderr).toContain(`${unknown}: sides[0].unit: unknown unit "brutes"`);
  });

  it("validate checks a units file by the plugin's own check (its dataFile), as a built-in's; untrusted, only the built-ins' apply", async () => {
    const units = path.join(PLUGIN, 'units.yaml');
    expect((await ok('validate', units, path.join(REPOSITORY, 'data', 'heroic', 'units.yaml'))).stdout).toBe(
      `ok ${units}\nok ${path.join(REPOSITORY, 'data', 'heroic', 'units.yaml')}\n`,
    );
    // Named like heroic's units files too: without --plugin it is read as one, and is not.
    const untrusted = await runCli(['validate', units]);
    expect(untrusted.status).toBe(2);
    expect(untrusted.stderr).toContain(`${units}: units[0].def: missing required field "def"`);
    // A mistake is the plugin's problem, saying which of the formats named units.* it was read as.
    const bad = path.join(root, 'units.yaml');
    await writeFile(bad, (await readFile(units, 'utf8')).replace('save: 5', 'save: 9'));
    const result = await runCli(['validate', bad, ...TRUST]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      `${bad}: units[3].save: must be an integer ≤ 7, got 9 (checked as a homebrew data file: the closest to it of the formats named like it, homebrew, heroic)`,
    ]);
  });

  it('schema --plugin writes the committed schema files of examples/homebrew/schema', async () => {
    const out = path.join(root, 'schema');
    await ok('schema', '--plugin', path.join(PLUGIN, 'index.ts'), '--out', out);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(['homebrew-scenario.schema.json', 'homebrew-units.schema.json']);
    for (const name of names) {
      expect(
        await readFile(path.join(out, name), 'utf8'),
        `examples/homebrew/schema/${name} is stale: run the schema command of the tutorial`,
      ).toBe(await readFile(path.join(PLUGIN, 'schema', name), 'utf8'));
    }
  });

  it("the roster's costs are the points formula's", async () => {
    const units = unitsFileSchema.parse(parse(await readFile(path.join(PLUGIN, 'units.yaml'), 'utf8'))).units;
    const roster = parse(await readFile(ROSTER, 'utf8')) as { entries: { id: string; cost: number }[] };
    for (const entry of roster.entries) {
      const unit = units.find((candidate) => candidate.id === entry.id);
      expect(unit, entry.id).toBeDefined();
      if (unit !== undefined) expect(entry.cost, entry.id).toBe(pointsPerModel(unit));
    }
  });
});
