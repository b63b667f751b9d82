import { type BalanceDocument, balanceDocumentSchema } from '../../documents/balance-document.js';
import { type CompareDocument, compareDocumentSchema } from '../../documents/compare-document.js';
import { type MatchupsDocument, matchupsDocumentSchema } from '../../documents/matchups-document.js';
import { outcomeFromCounts } from '../../statistics/outcome.js';
import { type SweepDocument, sweepDocumentSchema } from '../../documents/sweep-document.js';

/**
 * Synthetic analysis documents with known numbers, one of each kind, checked against their schemas
 * (a schema change fails here, not deep in a page test): the oracle of the page tests is the
 * document itself — what the page must show. The matchups hold a hostile name, a mirror that
 * always draws (its score must read 50%, not 0%), and unequal points.
 */
export const HOSTILE = '<script>alert(1)</script>';
const TRIALS = 1000;
const ENGINE = 'heroic-1.1.0';

/** A seated outcome from counts out of TRIALS, as JSON holds it. */
const seated = (wins: number, draws: number) =>
  JSON.parse(JSON.stringify(outcomeFromCounts(wins, draws, TRIALS - wins - draws))) as MatchupsDocument['cells'][number]['combined'];

/** Entries and their first-seat wins and draws against each other (row first). */
const ENTRIES = [
  { id: 'knight', name: 'Knight', count: 4, cost: 16, points: 64 },
  { id: 'goblin', name: HOSTILE, count: 12, cost: 5, points: 60 },
  { id: 'wall', name: 'Shield Wall', count: 5, cost: 10, points: 50 },
];
const FIRST_SEATED: Record<string, readonly [number, number]> = {
  'knight/knight': [600, 0],
  'knight/goblin': [700, 100],
  'knight/wall': [0, 1000],
  'goblin/knight': [300, 100],
  'goblin/goblin': [550, 0],
  'goblin/wall': [0, 1000],
  'wall/knight': [0, 1000],
  'wall/goblin': [0, 1000],
  'wall/wall': [0, 1000],
};

/** The mean of two seatings, as analysis/matchups.ts combines them (equal weights, trials summed). */
function combined(first: ReturnType<typeof seated>, second: ReturnType<typeof seated>): ReturnType<typeof seated> {
  const wins = Math.round((first.win.value + second.win.value) * TRIALS);
  const draws = Math.round((first.draw.value + second.draw.value) * TRIALS);
  return JSON.parse(JSON.stringify(outcomeFromCounts(wins, draws, 2 * TRIALS - wins - draws))) as ReturnType<typeof seated>;
}

export function matchupsFixture(): MatchupsDocument {
  const cells = ENTRIES.flatMap((row) =>
    ENTRIES.map((column) => {
      const [wins, draws] = FIRST_SEATED[`${row.id}/${column.id}`] ?? [0, 0];
      const first = seated(wins, draws);
      // Seated second: the column's first-seated game seen from the row (wins and losses swapped).
      const [theirWins, theirDraws] = FIRST_SEATED[`${column.id}/${row.id}`] ?? [0, 0];
      const second = seated(TRIALS - theirWins - theirDraws, theirDraws);
      return { row: row.id, column: column.id, first, second, combined: combined(first, second) };
    }),
  );
  return matchupsDocumentSchema.parse({
    kind: 'matchups',
    roster: 'Test roster',
    file: 'data/test/roster.yaml',
    ruleset: 'heroic',
    engineVersion: ENGINE,
    seating: 'both',
    seed: 20261122,
    trialsPerSeat: TRIALS,
    precision: 0.022,
    entries: ENTRIES,
    cells,
  });
}

const field = (path: string, label: string, title: string) => ({ path, label, title });
const estimate = (value: number, half: number) => ({
  estimate: value,
  variance: 1000 * half * half,
  interval: { low: value - half, high: value + half },
});

export function compareFixture(): CompareDocument {
  const variant = (name: string, asWritten: boolean) => ({
    name,
    asWritten,
    changes: asWritten ? [] : [{ field: field('options.allocation', 'Allocation', 'allocation'), value: 'least-damaged' }],
    ruleset: 'heroic',
    engineVersion: ENGINE,
    unitsDigest: 'a'.repeat(64),
  });
  return compareDocumentSchema.parse({
    kind: 'compare',
    scenario: 'Knights against an Ogre',
    file: 'data/test/knights.yaml',
    ruleset: 'heroic',
    engineVersion: ENGINE,
    method: 'mc',
    seed: 20261122,
    trials: 5000,
    paired: true,
    baseline: variant('(as written)', true),
    variant: variant('least-damaged', false),
    metrics: ['winner', 'rounds'],
    outcomes: [
      // The variant helps the knights win: +5 points, right of zero.
      {
        metric: 'winner',
        kind: 'category',
        description: 'side that won',
        title: 'Side that won: Knights',
        label: 'Knights',
        value: 1,
        measure: 'probability',
        baseline: estimate(0.6, 0.014),
        variant: estimate(0.65, 0.013),
        difference: { estimate: 0.05, standardError: 0.004, interval: { low: 0.042, high: 0.058 }, pValue: 1e-9 },
        unpairedTrialsFactor: 12,
        neverSeen: false,
      },
      {
        metric: 'rounds',
        kind: 'count',
        description: 'rounds started',
        title: 'Rounds started',
        measure: 'mean',
        baseline: estimate(3.2, 0.05),
        variant: estimate(3.1, 0.05),
        difference: { estimate: -0.1, standardError: 0.02, interval: { low: -0.14, high: -0.06 }, pValue: 1e-6 },
        unpairedTrialsFactor: 3,
        neverSeen: false,
      },
    ],
  });
}

export function sweepFixture(): SweepDocument {
  const models = [3, 4, 5];
  const won = [0.5, 0.7, 0.9];
  return sweepDocumentSchema.parse({
    kind: 'sweep',
    scenario: 'Knights against an Ogre',
    file: 'data/test/knights.yaml',
    ruleset: 'heroic',
    engineVersion: ENGINE,
    method: 'mc',
    precision: null,
    axes: [{ field: field('sides[0].groups[0].models', 'Knights › knights: models', 'models'), values: models }],
    metrics: [
      { name: 'ogre.vanquished', kind: 'flag', description: 'every model of ogre vanquished', title: 'Ogre vanquished' },
      { name: 'rounds', kind: 'count', description: 'rounds started', title: 'Rounds started' },
    ],
    points: models.map((count, i) => {
      const p = won[i] ?? 0;
      return {
        values: [count],
        method: 'mc',
        seed: 1,
        trials: 2000,
        exact: null,
        unitsDigest: 'b'.repeat(64),
        results: [
          {
            metric: 'ogre.vanquished',
            kind: 'flag',
            distribution: [
              {
                value: 0,
                label: 'no',
                probability: 1 - p,
                interval: { low: 1 - p - 0.019, high: 1 - p + 0.019 },
                count: Math.round((1 - p) * 2000),
              },
              { value: 1, label: 'yes', probability: p, interval: { low: p - 0.019, high: p + 0.019 }, count: Math.round(p * 2000) },
            ],
          },
          // Always 1 round: unchanged across the sweep, listed rather than drawn.
          {
            metric: 'rounds',
            kind: 'count',
            mean: 1,
            sd: 0,
            meanInterval: { low: 1, high: 1 },
            distribution: [{ value: 1, probability: 1, interval: { low: 0.998, high: 1 }, count: 2000 }],
          },
        ],
      };
    }),
  });
}

const estimateOf = (value: number, half: number) => ({ value, interval: { low: value - half, high: value + half } });
const oneSituation = [{ name: 'the template', share: 1, changes: [], leftOut: [] }];

/** A price list of units bought by count: one unit priced alone against the list as published (its curve and opponents). */
export function countBalanceFixture(): BalanceDocument {
  const curve = [3, 4, 5].map((count, i) => ({ count, score: estimateOf([0.3, 0.5, 0.7][i] ?? 0, 0.01), fine: true }));
  return balanceDocumentSchema.parse({
    kind: 'balance',
    roster: 'Test roster',
    file: 'data/test/roster.yaml',
    ruleset: 'heroic',
    engineVersion: ENGINE,
    seed: 20261122,
    precision: 0.01,
    tolerance: { kind: 'percent', value: 10 },
    situations: oneSituation,
    fielded: 'by-count',
    scope: 'unit',
    budget: 60,
    maxCount: 60,
    entries: [
      { id: 'knight', name: 'Knight', published: 20 },
      { id: 'goblin', name: HOSTILE, published: 5 },
    ],
    units: [
      {
        id: 'knight',
        name: 'Knight',
        published: 20,
        deserved: 15,
        interval: { low: 14.2, high: 15.8 },
        changePercent: -25,
        verdict: 'over-costed',
        count: 4,
        status: 'priced',
        publishedScore: estimateOf(0.3, 0.009),
        curve,
        opponents: [{ opponent: 'goblin', name: HOSTILE, count: 12, fairCount: 4, cost: 15, status: 'priced' }],
        check: { score: estimateOf(0.502, 0.0039), pass: true },
      },
    ],
    check: { seed: 1234, passed: true, misses: [] },
    trials: 60_000,
    runs: 12,
    runsBy: [{ purpose: 'answer', runs: 12, trials: 5_000 }],
    converged: true,
  });
}

/** A price list of units fielded whole, from the matchups fixture's round robin. */
export function wholeBalanceFixture(): BalanceDocument {
  const units = [
    { id: 'knight', name: 'Knight', points: 64, strength: 0.4, deserved: 40, interval: { low: 30, high: 52 }, verdict: 'over-costed' },
    { id: 'goblin', name: HOSTILE, points: 60, strength: 0.1, deserved: 58, interval: { low: 45, high: 75 }, verdict: 'uncertain' },
    {
      id: 'wall',
      name: 'Shield Wall',
      points: 50,
      strength: 0.5,
      deserved: 90,
      interval: { low: 62, high: null },
      verdict: 'under-costed',
    },
  ].map((unit) => ({
    ...unit,
    published: unit.points,
    changePercent: ((unit.deserved - unit.points) / unit.points) * 100,
    strengthStandardError: 0.05,
    lineWeight: 1,
    heldOutError: 0.02,
  }));
  return balanceDocumentSchema.parse({
    kind: 'balance',
    roster: 'Test roster',
    file: 'data/test/roster.yaml',
    ruleset: 'heroic',
    engineVersion: ENGINE,
    seed: 20261122,
    precision: 0.022,
    tolerance: { kind: 'percent', value: 10 },
    situations: oneSituation,
    fielded: 'whole',
    units,
    regression: { intercept: -4, slope: 1, slopeInterval: { low: 0.5, high: 1.5 }, scatter: 0.2, degreesOfFreedom: 1, noiseSd: 0.05 },
    drawParameter: 0.3,
    drawInterval: { low: 0.2, high: 0.4 },
    seatAdvantage: 0.1,
    seatAdvantageStandardError: 0.02,
    converged: true,
    heldOut: {
      folds: 3,
      pairings: 3,
      rmsError: 0.02,
      rmsNoise: 0.01,
      worst: [{ row: 'knight', column: 'goblin', predicted: 0.6, played: 0.63 }],
    },
    matchups: matchupsFixture(),
  });
}

export const FIXTURES = {
  matchups: matchupsFixture,
  compare: compareFixture,
  sweep: sweepFixture,
  balance: countBalanceFixture,
  whole: wholeBalanceFixture,
} as const;
