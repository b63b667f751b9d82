import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BalanceResult } from '../../analysis/balance.js';
import { compareVariants } from '../../analysis/compare.js';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { exactScenario, runScenario, type ScenarioResult } from '../../analysis/run.js';
import type { MetricSummary } from '../../analysis/summary.js';
import { sweep, type SweepAxis } from '../../analysis/sweep.js';
import { loadScenarioFile } from '../../sim/scenario-file.js';
import { atLeastChart, balanceCurveChart, type Chart, comparisonChart, costScatterChart, distributionChart, heatmapChart, sweepChart, VEGA_LITE_SCHEMA } from '../../reports/charts.js';
import { compileChart, renderChart, renderPng } from '../../reports/render.js';

/**
 * Every chart builder on small real results (2,000-trial runs of bundled scenarios and a roster;
 * hand-made balance fits): the spec compiles without warnings, the SVG carries the title and axis
 * titles as text, the PNG really has text drawn in its title area, and a unit named like markup is
 * shown as text. The PNGs are written to /tmp/crucible-charts/ to be looked at.
 */

const PNG_DIRECTORY = '/tmp/crucible-charts';
const HOSTILE = '<script>alert(1)</script>';
const TRIALS = 2000;

const metric = (result: Pick<ScenarioResult, 'summary'>, name: string): MetricSummary => {
  const found = result.summary.find((summary) => summary.name === name);
  if (found === undefined) throw new Error(`no metric ${name}`);
  return found;
};

const fit = (unit: string, publishedCost: number, fairCost: number, low: number, high: number): BalanceResult => ({
  unit,
  budget: 60,
  target: 'win-half',
  targetWinRate: 0.5,
  publishedCost,
  fairCost,
  costInterval: { low, high },
  fairCount: 60 / fairCost,
  curve: [1, 2, 3, 4, 5, 6].map((count) => {
    const winRate = 1 / (1 + Math.exp(-1.6 * (count - 60 / fairCost)));
    return { count, winRate, interval: { low: Math.max(0, winRate - 0.03), high: Math.min(1, winRate + 0.03) }, trials: 9604 };
  }),
});

interface Case {
  readonly chart: Chart;
  /** Texts the SVG must show: the title and the axis titles. */
  readonly texts: readonly string[];
}

const cases: Case[] = [];

beforeAll(async () => {
  const formation = await runScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'), { trials: TRIALS });
  const exact = exactScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'));
  if (exact === undefined) throw new Error('sylvan-knights-formation should be small enough to enumerate');
  const roster = await loadRoster('data/heroic/rosters/core.yaml');
  const ids = ['sylvan-knight', 'goblin', 'ogre'];
  const cells = await matchups(roster, { only: ids, trials: TRIALS });
  const names = new Map(roster.roster.entries.map((entry) => [entry.id, entry.name ?? entry.id] as const));
  names.set('goblin', HOSTILE);
  const axes: SweepAxis[] = [
    { path: 'sides[0].groups[0].models', values: [3, 4, 5] },
    { path: 'sides[0].groups[0].formation', values: [true, false] },
  ];
  const points = await sweep('data/heroic/scenarios/sylvan-knights-formation.yaml', axes, { trials: TRIALS });
  const comparison = await compareVariants('data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', undefined, 'least-damaged', { trials: TRIALS });
  const knight = fit('sylvan-knight', 16, 17.4, 16.6, 18.3);
  const fits = [knight, fit('ogre', 40, 33.2, 31.5, 35.1), fit('goblin', 5, 5.1, 4.8, 5.5), { ...fit('kobold', 3, 3, 3, 3), fairCost: undefined } as unknown as BalanceResult];
  cases.push(
    { chart: distributionChart(metric(formation, 'winner')), texts: ['winner: how often each outcome happens', 'Chance', 'Side whose enemies were all vanquished (none: round limit reached, or both sides wiped out)'] },
    { chart: distributionChart(metric(formation, 'ogre.woundsTaken'), { title: 'Wounds the Ogre takes', id: 'ogre-wounds' }), texts: ['Wounds the Ogre takes', 'Chance', 'Wounds taken by ogre'] },
    { chart: atLeastChart(metric(formation, 'A.woundsDealt')), texts: ['A.woundsDealt: chance of N or more', 'Chance of N or more'] },
    { chart: comparisonChart(comparison), texts: ['Difference in chance (A − B)', 'Difference in mean (A − B)', 'winner = Sylvan Knights'] },
    { chart: comparisonChart(comparison, ['winner=Sylvan Knights', 'winner=Regenerating Ogre'], { title: 'Least-damaged allocation and who wins' }), texts: ['Least-damaged allocation and who wins', 'Difference in chance (A − B)'] },
    { chart: heatmapChart(cells, names), texts: ['Chance the row unit wins each matchup', 'Opponent (side B)', 'Unit (side A)', 'Sylvan Knight', 'P(unit wins)'] },
    { chart: sweepChart(axes, points, 'ogre.vanquished', 'yes', { xTitle: 'Sylvan Knights', colorTitle: 'In formation' }), texts: ['ogre.vanquished as sides[0].groups[0].models changes', 'Sylvan Knights', 'In formation', 'Chance: Every model of ogre vanquished'] },
    { chart: sweepChart(axes.slice(0, 1), points.filter((point) => point.values[1] === true), 'ogre.woundsTaken', 'mean', { title: 'Wounds on the Ogre by knights in formation' }), texts: ['Wounds on the Ogre by knights in formation', 'sides[0].groups[0].models', 'Mean: Wounds taken by ogre'] },
    { chart: balanceCurveChart(knight, { name: 'Sylvan Knight' }), texts: ['Sylvan Knight: win rate by models fielded', 'Models fielded for 60 points', 'Average win rate against the roster', 'target 50%'] },
    { chart: costScatterChart(fits, { names }), texts: ['Published against fitted point costs', 'Published cost (points per model)', 'Fitted fair cost (points per model)', 'Sylvan Knight'] },
    { chart: distributionChart(metric(exact, 'winner'), { id: 'exact-winner' }), texts: ['winner: how often each outcome happens', 'Chance of each value: exact probabilities (every outcome enumerated)'] },
    { chart: atLeastChart(metric(exact, 'A.woundsDealt'), { id: 'exact-at-least' }), texts: ['A.woundsDealt: chance of N or more', 'Chance of N or more', 'Each point is P(A.woundsDealt ≥ N): exact probabilities (every outcome enumerated)'] },
  );
  await mkdir(PNG_DIRECTORY, { recursive: true });
}, 120_000);

/** The text content of every <text> element, entities decoded. */
function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map((match) =>
    (match[1] ?? '').replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&'),
  );
}

/** Near-black pixels in the top `rows` rows and left `columns` columns of a decoded PNG. */
function darkPixels(image: ReturnType<typeof decode>, rows: number, columns: number): number {
  let dark = 0;
  for (let y = 0; y < Math.min(rows, image.height); y++) {
    for (let x = 0; x < Math.min(columns, image.width); x++) {
      const i = (y * image.width + x) * image.channels;
      if ((image.data[i] ?? 255) + (image.data[i + 1] ?? 255) + (image.data[i + 2] ?? 255) < 200) dark++;
    }
  }
  return dark;
}

describe('chart specs', () => {
  it('are self-contained Vega-Lite specs with a schema, a title and file-safe ids', () => {
    expect(cases).toHaveLength(12);
    const ids = cases.map((c) => c.chart.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { chart } of cases) {
      expect(chart.id).toMatch(/^[A-Za-z0-9._-]+$/);
      expect(chart.spec.$schema).toBe(VEGA_LITE_SCHEMA);
      expect(chart.spec.title).toMatchObject({ text: chart.title });
      // JSON all the way down (no undefined, NaN or functions), and no data fetched from anywhere.
      expect(JSON.parse(JSON.stringify(chart.spec))).toEqual(chart.spec);
      expect(JSON.stringify(chart.spec)).not.toMatch(/"url"\s*:/);
    }
  });

  it('compile with vega-lite without warnings', () => {
    for (const { chart } of cases) expect(compileChart(chart).warnings, chart.id).toEqual([]);
  });

  it('show probabilities on percent axes', () => {
    for (const { chart } of cases.filter((c) => !c.chart.id.startsWith('cost-scatter') && !c.chart.title.startsWith('Wounds on'))) {
      expect(JSON.stringify(chart.spec), chart.id).toMatch(/"format":"(\+?\.\d%)"/);
    }
  });

  it('draw exact summaries (0 trials) without intervals: no rule or band, no 95% fields, "exact probabilities" not "0 trials"', () => {
    const exact = cases.filter((c) => c.chart.id.startsWith('exact-'));
    expect(exact).toHaveLength(2);
    for (const { chart } of exact) {
      const text = JSON.stringify(chart.spec);
      expect(text, chart.id).toContain('exact probabilities');
      expect(text, chart.id).not.toMatch(/95%|trials|"low"|"high"|"rule"|"area"/);
    }
    // The Monte Carlo charts of the same metrics keep theirs.
    const sampled = cases.find((c) => c.chart.id === 'distribution-winner-how-often-each-outcome-happens')?.chart;
    expect(JSON.stringify(sampled?.spec)).toMatch(/with 95% intervals; 2,000 trials.*"rule"/);
  });

  it('reject an unknown outcome, metric or label, a non-count "N or better", and an unsafe id', async () => {
    const formation = await runScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'), { trials: 100 });
    expect(() => atLeastChart(metric(formation, 'winner'))).toThrow(/count metric/);
    expect(() => distributionChart(metric(formation, 'winner'), { id: '../escape' })).toThrow(/chart id/);
    const axes = [{ path: 'sides[0].groups[0].models', values: [3] }];
    expect(() => sweepChart(axes, [{ values: [3], result: formation }], 'nope', 'mean')).toThrow(/no metric/);
    expect(() => sweepChart(axes, [{ values: [3], result: formation }], 'winner', 'Martians')).toThrow(/no value/);
  });
});

describe('rendering', () => {
  it('draws SVG with the title and axis titles as text, without warnings', async () => {
    for (const { chart, texts } of cases) {
      const { svg, warnings } = await renderChart(chart);
      expect(warnings, chart.id).toEqual([]);
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      const shown = svgTexts(svg);
      for (const text of texts) expect(shown, `${chart.id}: ${text}`).toContain(text);
      expect(svg).toContain('font-family="Inter, sans-serif"');
      await writeFile(path.join(PNG_DIRECTORY, `${chart.id}.svg`), svg);
    }
  });

  it('draws PNGs whose title area has dark text pixels', async () => {
    for (const { chart } of cases) {
      const svg = (await renderChart(chart)).svg;
      const png = await renderPng(svg, 2);
      expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      await writeFile(path.join(PNG_DIRECTORY, `${chart.id}.png`), png);
      const image = decode(png);
      const [, svgWidth, svgHeight] = /width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"/.exec(svg) ?? [];
      expect(image.width).toBe(Math.round(2 * Number(svgWidth)));
      expect(image.height).toBe(Math.round(2 * Number(svgHeight)));
      expect(image.width).toBeGreaterThan(600);
      // The title sits at the top left (12 px padding, 16 px font; ×2): count near-black pixels there.
      const dark = darkPixels(image, 70, 600);
      expect(dark, chart.id).toBeGreaterThan(300);
    }
  });

  it('draws the title area white when the title text is blanked: the dark pixels are the text', async () => {
    const { chart } = cases[0]!;
    const svg = (await renderChart(chart)).svg;
    const titled = `>${chart.title}</text>`;
    expect(svg).toContain(titled);
    const image = decode(await renderPng(svg.replace(titled, '></text>'), 2));
    expect(darkPixels(image, 70, 600)).toBe(0);
  });

  it('shows a unit named like markup as text, only from data values', async () => {
    const heatmap = cases.find((c) => c.chart.id.startsWith('heatmap'))!.chart;
    const svg = (await renderChart(heatmap)).svg;
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(1)');
    expect(svgTexts(svg).some((text) => text.startsWith('<script>alert(1)'))).toBe(true);
    // The name is in the data and the sort list, never in an expression.
    const { data, ...rest } = heatmap.spec;
    expect(JSON.stringify(data)).toContain(HOSTILE);
    const outside = JSON.stringify(rest);
    expect(outside.split(HOSTILE).length - 1).toBe(2); // x and y sort orders
    expect(outside).not.toMatch(/"(test|expr|calculate|labelExpr)":"[^"]*script/);
    const scatter = cases.find((c) => c.chart.id.startsWith('cost-scatter'))!.chart;
    const scatterSvg = (await renderChart(scatter)).svg;
    expect(scatterSvg).not.toContain('<script');
    expect(svgTexts(scatterSvg)).toContain(HOSTILE);
  });
});
