import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareDocumentSchema } from '../../documents/compare-document.js';
import { summarizeExact, summarizeHistogram } from '../../statistics/summary.js';
import { sweepDocumentSchema } from '../../documents/sweep-document.js';
import { compactDistribution, percent } from '../../documents/format.js';
import { comparePage } from '../../reports/compare-page.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `crucible compare` and `crucible sweep` as a designer reads them, and the JSON they and
 * `crucible run` write: the compare baseline is `run --json` count for count (two rule systems,
 * both Monte Carlo methods), columns come in the title's order with the difference variant −
 * baseline, nothing prints as a field path or a mean of category codes, and exact results carry
 * no trial counts.
 */

const SEED = '20261122';
const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const WARMASTER = 'data/warmaster/scenarios/knights-charge-supported-orcs.yaml';
const ATTACK = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

const folder = mkdtemp(path.join(tmpdir(), 'crucible-compare-sweep-'));
afterAll(async () => rm(await folder, { recursive: true, force: true }));

/** A printed table's line as its cells (columns stand two or more spaces apart). */
const cellsOf = (line: string | undefined): string[] | undefined => line?.trim().split(/ {2,}/);

async function ok(...args: string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

interface RunMetric {
  readonly name: string;
  readonly trials: number | null;
  readonly mean: number;
  readonly distribution: readonly { readonly value: number; readonly count?: number; readonly probability: number }[];
}

describe('compare', () => {
  it.each([
    [HEROIC, 'no-regeneration', 'mc', '12000'],
    [WARMASTER, 'knights-stand', 'mc-dice', '6000'],
  ])('%s --variant %s --method %s: the baseline is `run --json`, count for count', async (file, variant, method, trials) => {
    const options = ['-s', SEED, '-n', trials, '--method', method];
    const compared = compareDocumentSchema.parse(JSON.parse(await ok('compare', file, '--variant', variant, ...options, '--json')));
    const run = JSON.parse(await ok('run', file, ...options, '--json', '--quiet', '-w', '0')) as { trials: number; metrics: RunMetric[] };
    expect(compared).toMatchObject({ kind: 'compare', method, seed: Number(SEED), trials: run.trials });
    expect(compared.outcomes.length).toBeGreaterThan(10);
    for (const outcome of compared.outcomes) {
      const metric = run.metrics.find((candidate) => candidate.name === outcome.metric);
      if (outcome.measure === 'mean') {
        expect(outcome.baseline.estimate, outcome.metric).toBe(metric?.mean);
        continue;
      }
      const count = metric?.distribution.find((entry) => entry.value === outcome.value)?.count ?? 0;
      expect(Math.round(outcome.baseline.estimate * run.trials), `${outcome.metric} ${outcome.label}`).toBe(count);
      expect(outcome.baseline.estimate).toBe(count / run.trials);
    }
  });

  it('reads as titled: baseline column first, then the variant, then variant − baseline, said in the header', async () => {
    const text = await ok(
      'compare',
      HEROIC,
      '--variant',
      'no-regeneration',
      '-s',
      SEED,
      '-n',
      '4000',
      '--metric',
      'winner',
      'A.modelsLost',
    );
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'A regenerating Ogre against three Sylvan Knights in formation, to the end: the scenario as written → no-regeneration, on the same dice',
    );
    // The verdict leads, on the headline metric (--metric's first): the knights win more often without regeneration.
    expect(lines[1]).toMatch(
      /^With “no-regeneration”, “Side whose enemies were all vanquished: Sylvan Knights” happens \d+\.\d+ points more often than with the scenario as written: \d+% against \d+% \(95% interval \d+\.\d+ to \d+\.\d+ points more; p < 0\.001\)\.$/,
    );
    expect(text).toContain(
      '  baseline (as written): the scenario as written\n  variant  no-regeneration: the same Ogre without Regeneration',
    );
    expect(text).toContain('sets Regenerating Ogre › ogre: unit (sides[0].groups[0].unit) to "ogre"');
    expect(text).toContain('  method   Monte Carlo (outcomes drawn from exact tables), paired');
    expect(cellsOf(lines.find((line) => line.startsWith('outcome ')))).toEqual([
      'outcome',
      '(as written)',
      'no-regeneration',
      'no-regeneration − (as written)',
      '95% interval',
      'p',
      'unpaired would need',
      'metric',
    ]);
    // Without regeneration the Ogre wins less: a negative difference, variant − baseline.
    const ogre = cellsOf(lines.find((line) => line.startsWith('Side whose enemies were all vanquished: Regenerating Ogre ')));
    expect(Number(ogre?.[1]?.replace('%', ''))).toBeGreaterThan(Number(ogre?.[2]?.replace('%', '')));
    expect(ogre?.[3]).toMatch(/^-\d+\.\d\d pts$/);
    expect(lines.some((line) => line.startsWith('Own models vanquished (Regenerating Ogre) '))).toBe(true);
    expect(text).toContain('Never in either (0 in every trial of both): Side whose enemies were all vanquished: none.');
    expect(text).not.toMatch(/B\.modelsLost|rounds/);
  });

  it('bad requests: exit 2, the file and the option named, no stack trace', async () => {
    const unknown = await runCli(['compare', HEROIC, '--variant', 'no-regeneration', '--metric', 'modelsLost']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      new RegExp(`^${HEROIC}: --metric: no metric "modelsLost" in this comparison; its metrics are winner, rounds, A\\.woundsDealt, `),
    );
    const twice = await runCli(['compare', HEROIC, '--variant', 'least-damaged', 'least-damaged']);
    expect(twice.stderr).toBe(`${HEROIC}: --variant: least-damaged twice: a variant compared with itself differs in nothing\n`);
    const three = await runCli(['compare', HEROIC, '--variant', 'a', 'b', 'c']);
    expect(three.stderr).toBe(`${HEROIC}: --variant: takes one or two names (the baseline first), got 3\n`);
    for (const result of [unknown, twice, three]) {
      expect(result.status).toBe(2);
      expect(result.stderr).not.toMatch(STACK_LINE);
    }
  });
});

describe('compare: what the designer asked is answered in words', () => {
  /** The Sylvan Knights scenario with variants that change nothing, or set a bad value. */
  const variantsFile = folder.then(async (out) => {
    const file = path.join(out, 'knights.yaml');
    const written = (await readFile(ATTACK, 'utf8')).replace(/^variants:[\s\S]*$/m, '');
    const units = JSON.stringify(path.join(REPOSITORY, 'data/heroic/units.yaml'));
    await writeFile(
      file,
      `${written.replace('mode: attack', `unitsFile: ${units}\nmode: attack`)}variants:
  - { name: formed, description: "in formation, as written", set: { "sides[0].groups[0].formation": true } }
  - { name: formed-too, set: { "sides[0].groups[0].formation": true } }
  - { name: renamed, set: { "name": "Another name" } }
  - { name: negative, set: { "sides[0].groups[0].models": -3 } }
`,
    );
    return file;
  });

  it('without --variant: the variants the file declares, with descriptions and changes (exit 0); none declared, a units file, or --json: exit 2', async () => {
    const listing = await ok('compare', HEROIC);
    expect(listing).toContain(
      `${HEROIC} declares 2 variants: compare one with the scenario as written (--variant NAME) or two, the first the baseline (--variant BASELINE NAME).`,
    );
    expect(listing).toContain('  no-regeneration  the same Ogre without Regeneration');
    expect(listing).toContain(
      '  least-damaged    the knights give Wounds to their least damaged model first (rulings §5)\n                   sets options.allocation to "least-damaged"',
    );
    const none = await runCli(['compare', 'data/heroic/scenarios/sylvan-knights-singly.yaml']);
    expect(none.stderr).toMatch(
      /^data\/heroic\/scenarios\/sylvan-knights-singly\.yaml: variants: the file declares no variants, so there is nothing to compare: /,
    );
    const units = await runCli(['compare', 'data/heroic/units.yaml', '--variant', 'x']);
    expect(units.stderr).toBe(
      'data/heroic/units.yaml: (root): this is a units file; compare takes a scenario file that declares variants (e.g. data/heroic/scenarios/sylvan-knights-formation.yaml)\n',
    );
    const json = await runCli(['compare', HEROIC, '--json']);
    expect(json.stderr).toBe(
      `${HEROIC}: --variant: missing: name one variant to compare with the scenario as written, or two (the baseline first); the file declares no-regeneration, least-damaged\n`,
    );
    for (const result of [none, units, json]) {
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(STACK_LINE);
    }
  });

  it('a variant that changes nothing, or two that change the same: identical results, said in words, never "1.0×"', async () => {
    const file = await variantsFile;
    for (const variants of [['formed'], ['formed', 'formed-too'], ['renamed']]) {
      const text = await ok('compare', file, '--variant', ...variants, '-n', '3000', '-s', SEED);
      expect(text).not.toMatch(/\d\.\d×/);
      expect(text).toMatch(/ {2}same every trial {2}/);
      expect(text).toContain(
        variants[0] === 'renamed'
          ? 'The two variants gave identical results in every trial, on every outcome compared: nothing tells them apart.'
          : 'The two are the same scenario (the variant changes nothing the rules read): their results are identical in every trial.',
      );
    }
    // The document says so too, and the page built from it.
    const document = compareDocumentSchema.parse(JSON.parse(await ok('compare', file, '--variant', 'formed', '-n', '300', '--json')));
    expect(document.sameScenario).toBe(true);
    expect(comparePage(document).sections[0]?.text).toContain('The two are the same scenario (the variant changes nothing the rules read)');
    // A real change keeps the factor, a median over the outcomes whose difference varied.
    expect(await ok('compare', ATTACK, '--variant', 'singly', '-n', '3000', '-s', SEED)).toMatch(
      /\nRounds started {2}.* {2}same every trial {2}rounds\n[\s\S]*would need \d\.\d× the trials for the same precision \(median over the outcomes whose difference varied\)/,
    );
  });

  it('a bad value a variant sets is named at its field, saying which variant set it', async () => {
    const result = await runCli(['compare', await variantsFile, '--variant', 'negative']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `${await variantsFile}: sides[0].groups[0].models: must be an integer ≥ 1, got -3 (set by variant "negative")\n`,
    );
  });
});

describe('sweep', () => {
  it('reads in words: fields and metrics named, percentages as run prints them, one table per metric', async () => {
    const text = await ok(
      'sweep',
      HEROIC,
      '--set',
      'sides[0].groups[0].models=1,2',
      '-n',
      '3000',
      '-s',
      SEED,
      '-w',
      '0',
      '--metric',
      'winner',
      'B.modelsLost',
      'knights.formationBroken',
    );
    expect(text.split('\n')[0]).toBe(
      'A regenerating Ogre against three Sylvan Knights in formation, to the end: sweep of Regenerating Ogre › ogre: models',
    );
    expect(text).toContain('  swept    Regenerating Ogre › ogre: models (sides[0].groups[0].models): 1, 2');
    expect(text).toContain('  trials   3,000 a point');
    expect(text).toContain('Side whose enemies were all vanquished: the chance of each  [winner]');
    const rows = text.split('\n').map((line) => cellsOf(line));
    expect(rows).toContainEqual(['models', 'Regenerating Ogre', 'Sylvan Knights']);
    expect(rows).toContainEqual(['models', 'mean [95% interval]']);
    expect(rows).toContainEqual(['models', 'chance [95% interval]']);
    expect(text).toMatch(/^ +1 {2}\d+\.\d\d% \[\d+\.\d\d%, \d+\.\d\d%\] {2}\d+\.\d\d% \[\d+\.\d\d%, \d+\.\d\d%\]$/m);
    expect(text).toMatch(/^ +2 {2}\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]$/m);
    expect(text).not.toMatch(/^sides\[|0\.\d{4}\b/m);
  });

  it('a single action under auto is exact and says so; --out writes the table as CSV and JSON, the printout as Markdown; --layout long is tidy', async () => {
    const out = await folder;
    const files = ['csv', 'json', 'md'].map((extension) => path.join(out, `sweep.${extension}`));
    const args = ['sweep', ATTACK, '--set', 'rules.shieldSave=4,6', '--metric', 'winner', 'ogre.woundsTaken', '-w', '0'];
    let text = '';
    for (const file of files) text = await ok(...args, '--out', file);
    expect(text).toContain('  method   exact: every outcome enumerated (up to 13 paths a point; no sampling error, no intervals)');
    expect(text).not.toMatch(/seed|trials|\[\d/);
    const [csv, json, md] = await Promise.all(files.map((file) => readFile(file, 'utf8')));
    // A row per point, a column per outcome, its interval's ends beside it (empty: exact), how it was answered.
    expect(csv?.split('\n')[0]).toBe(
      'shield save,winner: none,winner: none low,winner: none high,winner: Sylvan Knights,winner: Sylvan Knights low,winner: Sylvan Knights high,ogre.woundsTaken mean,ogre.woundsTaken mean low,ogre.woundsTaken mean high,trials,method',
    );
    expect(csv).toMatch(/\n4,0\.\d{10,},,,0\.\d{10,},,,\d\.\d+,,,,exact\n/);
    expect(csv?.endsWith('exact\n')).toBe(true);
    const table = JSON.parse(json ?? '') as { title: string; columns: { name: string }[]; rows: unknown[][] };
    expect(table.columns.map((column) => column.name)).toEqual(csv?.split('\n')[0]?.split(','));
    expect(table.rows.map((row) => [row[0], row.at(-2), row.at(-1)])).toEqual([
      [4, null, 'exact'],
      [6, null, 'exact'],
    ]);
    expect(md).toContain('**Three Sylvan Knights in formation attack an Ogre: sweep of Shield save**');
    expect(md).toContain('- swept: Shield save (rules.shieldSave): 4, 6');
    expect(md).toContain('**Wounds taken by ogre  [ogre.woundsTaken]**');
    expect(md).toMatch(/^\| shield save \| mean \|$/m);
    // Long: a row per point and outcome, the terminal printing the same columns.
    const long = path.join(out, 'long.csv');
    const printed = await ok(...args, '--layout', 'long', '--out', long);
    const longCsv = await readFile(long, 'utf8');
    expect(longCsv.split('\n')[0]).toBe('shield save,metric,outcome,label,measure,estimate,low,high,trials,method');
    expect(longCsv).toMatch(
      /\n4,winner,Side whose enemies were all vanquished: Sylvan Knights,Sylvan Knights,probability,0\.\d{10,},,,,exact\n/,
    );
    expect(cellsOf(printed.split('\n').find((line) => line.startsWith('shield save ')))).toEqual([
      'shield save',
      'metric',
      'outcome',
      'label',
      'measure',
      'estimate',
      'low',
      'high',
      'trials',
      'method',
    ]);
    // The document is --json's.
    const document = sweepDocumentSchema.parse(JSON.parse(await ok(...args, '--json')));
    expect(document.points.map((point) => [point.method, point.trials])).toEqual([
      ['exact', null],
      ['exact', null],
    ]);
  });

  it('--layout wide: two fields as a grid per outcome, rows the first field, columns the second; refused with one field', async () => {
    const out = path.join(await folder, 'grid.csv');
    const text = await ok(
      'sweep',
      ATTACK,
      '--set',
      'rules.shieldSave=4,6',
      '--set',
      'sides[0].groups[0].models=3,4',
      '--metric',
      'winner',
      '-w',
      '0',
      '--layout',
      'wide',
      '--out',
      out,
    );
    expect(text).toContain('Side whose enemies were all vanquished: Sylvan Knights  [winner]: rows shield save, columns models');
    const csv = (await readFile(out, 'utf8')).split('\n');
    expect(csv[0]).toBe(
      'shield save,winner: none @ models=3,winner: none @ models=4,winner: Sylvan Knights @ models=3,winner: Sylvan Knights @ models=4',
    );
    expect(csv.slice(1, 3).map((line) => line.split(',')[0])).toEqual(['4', '6']);
    expect(csv[1]).toMatch(/^4(,0\.\d+){4}$/);
    expect(csv).toHaveLength(4);
    const one = await runCli(['sweep', ATTACK, '--set', 'rules.shieldSave=4,6', '--layout', 'wide']);
    expect(one.status).toBe(2);
    expect(one.stderr).toContain('--layout: wide is a grid of two swept fields');
  });
});

describe('run --json and the run output', () => {
  it('an exact result has null trials and no counts; a Monte Carlo one keeps both', async () => {
    const exact = JSON.parse(await ok('run', ATTACK, '--json')) as { method: string; trials?: unknown; metrics: RunMetric[] };
    expect(exact.method).toBe('exact');
    expect(exact).not.toHaveProperty('trials');
    for (const metric of exact.metrics) {
      expect(metric.trials).toBeNull();
      for (const entry of metric.distribution) expect(entry).not.toHaveProperty('count');
    }
    const sampled = JSON.parse(await ok('run', ATTACK, '--json', '-n', '500', '-w', '0')) as { trials: number; metrics: RunMetric[] };
    for (const metric of sampled.metrics) {
      expect(metric.trials).toBe(500);
      expect(metric.distribution.reduce((sum, entry) => sum + (entry.count ?? Number.NaN), 0)).toBe(500);
    }
  });

  it('Warmaster: the round a unit fell in is a category, printed as chances with the rounds never reached on one line', async () => {
    const text = await ok('run', WARMASTER, '-n', '2000', '-s', SEED, '-w', '0', '-q');
    expect(text).toMatch(/\n {2}orcs\.destroyedInRound +not destroyed +\d+\.\d\d% +\[/);
    expect(text).toMatch(/\n {32}in round 2 +\d+\.\d\d% +\[/);
    expect(text).toMatch(/\n {32}\d+ others +0\.00% +\[0\.00%, \d\.\d+%\] each: in round \d+, /);
    expect(text).not.toMatch(/destroyedInRound +mean/);
  });

  it('compactDistribution names a folded tail by what it holds; percent never prints a 0 or 100 that is not there', () => {
    expect(compactDistribution(summarizeHistogram('x', 'count', '', [999, 0, 0, 0, 0, 0, 0, 0, 0, 1]))).toBe('0: 99.9%  9: 0.1%');
    expect(compactDistribution(summarizeHistogram('x', 'count', '', [1, 0, 1, 0, 0, 0, 0, 0, 0, 998]))).toBe('≤2: 0.2%  9: 99.8%');
    const exact = summarizeExact(
      [{ name: 'x', kind: 'count', max: 9, description: '' }],
      [Float64Array.from([1e-13, 0, 0, 0, 0, 0, 0, 0, 0, 1 - 1e-13])],
    );
    expect(compactDistribution(exact[0] as NonNullable<(typeof exact)[0]>)).toBe('0: <0.0000000001%  9: >99.9999999999%');
    expect(percent(0.25)).toBe('25.00%');
    expect(percent(3.8e-5)).toBe('0.004%');
  });
});
