import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareVariants } from '../../analysis/compare.js';
import { outcomeFromCounts } from '../../statistics/outcome.js';
import { exactScenario, runScenario, type ScenarioResult } from '../../sim/run-scenario.js';
import type { MetricSummary } from '../../statistics/summary.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import {
  atLeastChart,
  balanceCurveChart,
  type Chart,
  type CostPoint,
  costScatterChart,
  differenceChart,
  type DifferenceRow,
  distributionChart,
  type HeatmapCell,
  heatmapChart,
  sweepChart,
  type SweepLinePoint,
  VEGA_LITE_SCHEMA,
} from '../../reports/charts.js';
import { estimateText } from '../../reports/format.js';
import { MIN_CHART_SCALE } from '../../reports/html.js';
import { compileChart, renderChart, renderPng } from '../../reports/render.js';

/**
 * Every chart builder on small real results (2,000-trial runs of bundled scenarios, a paired
 * comparison) and on hand-made points with known numbers (matchup outcomes from counts, sweep
 * lines, a balance curve, published-vs-fitted costs): the spec compiles without warnings, the SVG
 * carries the title and axis titles as text, the PNG really has text drawn in its title area, and
 * a unit named like markup is shown as text. The PNGs are written to /tmp/crucible-charts/ to be
 * looked at.
 */

const PNG_DIRECTORY = '/tmp/crucible-charts';
const HOSTILE = '<script>alert(1)</script>';
const TRIALS = 2000;

const metric = (result: Pick<ScenarioResult, 'summary'>, name: string): MetricSummary => {
  const found = result.summary.find((summary) => summary.name === name);
  if (found === undefined) throw new Error(`no metric ${name}`);
  return found;
};

/** A matchup cell from counts out of 1,000 per seating. */
const cell = (row: string, column: string, first: readonly [number, number], second: readonly [number, number]): HeatmapCell => {
  const a = outcomeFromCounts(first[0], first[1], 1000 - first[0] - first[1]);
  const b = outcomeFromCounts(second[0], second[1], 1000 - second[0] - second[1]);
  return {
    row,
    column,
    first: a,
    second: b,
    combined: outcomeFromCounts(first[0] + second[0], first[1] + second[1], 2000 - first[0] - first[1] - second[0] - second[1]),
  };
};

const costPoints: CostPoint[] = [
  { id: 'knight', name: 'Sylvan Knight', published: 16, fitted: 17.4, low: 16.6, high: 18.3, verdict: 'under-costed' },
  { id: 'ogre', name: 'Ogre', published: 40, fitted: 38.2, low: 36.5, high: 41.1, verdict: 'fair' },
  { id: 'goblin', name: HOSTILE, published: 5, fitted: 4.1, low: 3.8, high: 4.5, verdict: 'over-costed' },
  // The fit says under-costed although the published cost lies inside the interval drawn: the chart shows the fit's verdict, it does not make its own.
  { id: 'troll', name: 'Troll', published: 30, fitted: 31, low: 20, high: 45, verdict: 'under-costed' },
];

interface Case {
  readonly chart: Chart;
  /** Texts the SVG must show: the title and the axis titles. */
  readonly texts: readonly string[];
}

const cases: Case[] = [];
let heatmapCells: HeatmapCell[] = [];

beforeAll(async () => {
  const formation = await runScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'), { trials: TRIALS });
  const exact = exactScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'));
  if (exact === undefined) throw new Error('sylvan-knights-formation should be small enough to enumerate');
  const comparison = await compareVariants('data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', undefined, 'least-damaged', {
    trials: TRIALS,
  });
  const rows: DifferenceRow[] = comparison.outcomes
    .filter((outcome) => !outcome.neverSeen)
    .map((outcome) => ({
      label: outcome.title,
      kind: outcome.measure === 'probability' ? 'chance' : 'mean',
      baseline: outcome.baseline.mean,
      variant: outcome.variant.mean,
      difference: outcome.difference.mean,
      low: outcome.difference.interval.low,
      high: outcome.difference.interval.high,
      pValue: outcome.difference.pValue,
    }));
  heatmapCells = [
    cell('Sylvan Knight', 'Sylvan Knight', [600, 0], [400, 0]),
    cell('Sylvan Knight', HOSTILE, [700, 100], [600, 100]),
    // Every game a draw: an expected score of exactly 50%.
    cell(HOSTILE, HOSTILE, [0, 1000], [0, 1000]),
    cell(HOSTILE, 'Sylvan Knight', [300, 100], [200, 100]),
  ];
  const line = (estimates: readonly number[], series?: string): SweepLinePoint[] =>
    estimates.map((estimate, i) => ({
      x: 3 + i,
      ...(series === undefined ? {} : { series }),
      estimate,
      low: estimate - 0.02,
      high: estimate + 0.02,
      trials: TRIALS,
    }));
  const logistic = (z: number) => 1 / (1 + Math.exp(-z));
  cases.push(
    {
      chart: distributionChart(metric(formation, 'winner')),
      texts: [
        'winner: how often each outcome happens',
        'Chance',
        'Side whose enemies were all vanquished (none: round limit reached, or both sides wiped out)',
      ],
    },
    {
      chart: distributionChart(metric(formation, 'ogre.woundsTaken'), {
        title: 'Wounds the Ogre takes',
        id: 'ogre-wounds',
        xTitle: 'Wounds on the Ogre',
      }),
      texts: ['Wounds the Ogre takes', 'Chance', 'Wounds on the Ogre'],
    },
    { chart: atLeastChart(metric(formation, 'A.woundsDealt')), texts: ['A.woundsDealt: chance of N or more', 'Chance of N or more'] },
    {
      chart: differenceChart(rows, { baseline: 'as written', variant: 'least-damaged' }),
      texts: [
        'least-damaged against as written',
        'Change in chance, least-damaged − as written (percentage points)',
        'Change in the average, least-damaged − as written',
      ],
    },
    {
      chart: heatmapChart(heatmapCells, { rowTitle: 'Unit', columnTitle: 'Opponent' }),
      texts: [
        'Expected score of the row against the column',
        'Unit',
        'Opponent',
        'Sylvan Knight',
        'Expected score(win + ½ draw)(blue: the row ahead)',
      ],
    },
    {
      chart: heatmapChart(heatmapCells, { rowTitle: 'Bowmen plan', columnTitle: 'Orc plan', measure: 'win', id: 'heatmap-win' }),
      texts: ['Chance the row wins against the column', 'Bowmen plan', 'Orc plan', 'Chance therow wins(blue: more wins)'],
    },
    {
      chart: sweepChart([...line([0.5, 0.7, 0.9], 'yes'), ...line([0.4, 0.6, 0.8], 'no')], {
        xTitle: 'Sylvan Knights',
        yTitle: 'Chance the Ogre is vanquished',
        probability: true,
        seriesTitle: 'In formation',
      }),
      texts: ['Chance the Ogre is vanquished against Sylvan Knights', 'Sylvan Knights', 'In formation', 'Chance the Ogre is vanquished'],
    },
    {
      chart: sweepChart(line([3.2, 3.5, 3.7]), {
        title: 'Wounds on the Ogre by knights in formation',
        xTitle: 'Knights in the formation',
        yTitle: 'Wounds on the Ogre (average)',
        probability: false,
      }),
      texts: ['Wounds on the Ogre by knights in formation', 'Knights in the formation', 'Wounds on the Ogre (average)'],
    },
    {
      chart: balanceCurveChart(
        {
          points: [3, 4, 5].map((count) => ({
            x: count,
            score: logistic(2 * (count - 4)),
            low: logistic(2 * (count - 4)) - 0.02,
            high: logistic(2 * (count - 4)) + 0.02,
            trials: 9604,
          })),
          fitted: [3, 3.5, 4, 4.5, 5].map((x) => ({ x, score: logistic(2 * (x - 4)) })),
          xTitle: 'Models fielded for 60 points',
          integerX: true,
          fair: { x: 4, label: 'fair: 4.00 models (15.0 points each)' },
        },
        { title: 'Sylvan Knight: expected score by models fielded' },
      ),
      texts: [
        'Sylvan Knight: expected score by models fielded',
        'Models fielded for 60 points',
        'Expected score against the roster',
        'target 50%',
      ],
    },
    {
      chart: costScatterChart(costPoints),
      texts: ['Published against proposed point costs', 'Published cost (points)', 'Proposed cost (points)', 'Sylvan Knight', 'Troll'],
    },
    {
      chart: distributionChart(metric(exact, 'winner'), { id: 'exact-winner' }),
      texts: ['winner: how often each outcome happens', 'Chance of each value: exact probabilities (every outcome enumerated)'],
    },
    {
      chart: atLeastChart(metric(exact, 'A.woundsDealt'), { id: 'exact-at-least' }),
      texts: [
        'A.woundsDealt: chance of N or more',
        'Chance of N or more',
        'Each point is P(A.woundsDealt ≥ N): exact probabilities (every outcome enumerated)',
      ],
    },
  );
  await mkdir(PNG_DIRECTORY, { recursive: true });
}, 120_000);

/** The text content of every <text> element, entities decoded. */
function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([\s\S]*?)<\/text>/g)].map((match) =>
    (match[1] ?? '')
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
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
    for (const { chart } of cases.filter((c) => !/^(cost-scatter|difference)/.test(c.chart.id) && !c.chart.title.startsWith('Wounds on'))) {
      expect(JSON.stringify(chart.spec), chart.id).toMatch(/"format":"(\+?\.\d%)"/);
    }
  });

  it('colour the heatmap by expected score (win + ½ draw, both seatings): a mirror of draws reads 50%, not 0%; W/D/L and each seating on hover', () => {
    const heatmap = cases.find((c) => c.chart.id.startsWith('heatmap-expected'))!.chart;
    const values = (heatmap.spec.data as { values: Record<string, unknown>[] }).values;
    const drawn = values.find((row) => row.row === HOSTILE && row.column === HOSTILE);
    expect(drawn?.value).toBe(0.5);
    expect(drawn?.text).toMatch(/^50% ±/);
    // Knight against the goblins: (700 + 600 wins + ½ (100 + 100) draws) / 2000 = 0.70.
    const knight = values.find((row) => row.row === 'Sylvan Knight' && row.column === HOSTILE);
    expect(knight?.value).toBeCloseTo(0.7, 12);
    expect(knight?.text).toBe(estimateText(heatmapCells[1]!.combined.score));
    expect(knight?.first).toMatch(/^score 75% ±\d+(\.\d)? · win 70% · draw 10% · loss 20%$/);
    expect(knight?.second).toMatch(/^score 65% ±\d+(\.\d)? · win 60% · draw 10% · loss 30%$/);
    const spec = JSON.stringify(heatmap.spec);
    for (const title of ['Win', 'Draw', 'Loss', 'Row seated first', 'Row seated second']) expect(spec).toContain(`"title":"${title}"`);
    expect(spec).toContain('"title":["Expected score","(win + ½ draw)","(blue: the row ahead)"]');
    // P(win) on request: the draw mirror is then 0% wins, and the legend says so.
    const win = cases.find((c) => c.chart.id === 'heatmap-win')!.chart;
    expect(
      (win.spec.data as { values: Record<string, unknown>[] }).values.find((row) => row.row === HOSTILE && row.column === HOSTILE)?.value,
    ).toBe(0);
    expect(JSON.stringify(win.spec)).toContain('"title":["Chance the","row wins","(blue: more wins)"]');
  });

  it('a 24-unit matrix with long names: the legend under it, the chart narrow enough for a laptop results pane, no name cut', async () => {
    const names = Array.from(
      { length: 24 },
      (_, i) => `${['Halberdiers', 'Crossbowmen', 'Silver Helms', 'Troll Slayers'][i % 4]} (High Elves ${i})`,
    );
    const even = outcomeFromCounts(50, 0, 50);
    const cells = names.flatMap((row) => names.map((column) => ({ row, column, combined: even })));
    const { svg } = await renderChart(heatmapChart(cells, { rowTitle: 'Unit', columnTitle: 'Opponent', id: 'heatmap-24' }));
    // The workbench's results pane at 1280 px is ~740 px wide; a chart may shrink to MIN_CHART_SCALE there before it scrolls.
    expect(Number(/<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1]) * MIN_CHART_SCALE).toBeLessThanOrEqual(740);
    expect(svg).not.toContain('…');
    expect(svg).toContain('Troll Slayers (High Elves 23)');
  });

  it('a comparison\'s long outcome names wrap, never cut with "…"', async () => {
    const label = 'Wounds inflicted on enemy models, after every reduction (Sylvan Knights of the Ogre Kingdoms)';
    const rows: DifferenceRow[] = [{ label, kind: 'mean', baseline: 3.6, variant: 3.4, difference: -0.2, low: -0.25, high: -0.15 }];
    const { svg } = await renderChart(differenceChart(rows, { baseline: 'as written', variant: 'singly' }));
    expect(svg).not.toContain('…');
    // Each line of the label is a <tspan>: together they are the whole name.
    const lines = [...svg.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((match) => match[1] ?? '');
    expect(lines.join(' ')).toBe(label);
  });

  it('draw a comparison as variant − baseline: right of zero is more with the variant', () => {
    const rows: DifferenceRow[] = [
      { label: 'Ogre vanquished', kind: 'chance', baseline: 0.6, variant: 0.65, difference: 0.05, low: 0.04, high: 0.06 },
    ];
    const chart = differenceChart(rows, { baseline: 'as written', variant: 'singly' });
    const [row] = (chart.spec.data as { values: Record<string, unknown>[] }).values;
    expect(row).toMatchObject({
      difference: 5,
      low: 4,
      high: 6,
      baselineText: '60%',
      variantText: '65%',
      differenceText: '+5.0 points [+4.0, +6.0]',
      verdict: 'interval excludes 0',
    });
    expect(JSON.stringify(chart.spec)).toContain('singly − as written (percentage points)');
  });

  it('draw costs as the fit judged them: each point its given verdict, its interval as a bar on the fitted axis, labels that never overlap', () => {
    const scatter = cases.find((c) => c.chart.id.startsWith('cost-scatter'))!.chart;
    const values = (scatter.spec.data as { values: Record<string, unknown>[] }).values;
    expect(values.map((row) => [row.name, row.verdict])).toEqual(costPoints.map((point) => [point.name, point.verdict]));
    // The bar runs along y (fitted) from low to high.
    const layers = scatter.spec.layer as { mark: { type: string }; encoding: Record<string, { field?: string }> }[];
    const bar = layers.find((layer) => layer.mark.type === 'rule');
    expect(bar?.encoding.y?.field).toBe('low');
    expect(bar?.encoding.y2?.field).toBe('high');
    // Only the points with a verdict other than fair are labelled (the others on hover and in the table).
    expect(values.filter((row) => row.labelX !== null).map((row) => row.name)).toEqual(['Sylvan Knight', HOSTILE, 'Troll']);
    // A 270-point outlier among 10–40-point units: log scales, said in the subtitle.
    const wide = costScatterChart(
      [...costPoints, { id: 'giant', name: 'Giant', published: 270, fitted: 150, low: 120, high: 190, verdict: 'over-costed' }],
      { id: 'wide' },
    );
    expect(JSON.stringify(wide.spec)).toContain('"type":"log"');
    expect(JSON.stringify(wide.spec)).toContain('log scales');
    // Dense clusters: labels are placed apart or left out (and the subtitle says how many), never drawn over each other.
    const crowd: CostPoint[] = Array.from({ length: 30 }, (_, i) => ({
      id: `u${i}`,
      name: `Unit number ${i}`,
      published: 60 + (i % 6),
      fitted: 60 + Math.floor(i / 6),
      low: 55,
      high: 70,
      verdict: 'over-costed',
    }));
    const crowded = costScatterChart(crowd, { id: 'crowd', scale: 'linear' });
    const placed = (crowded.spec.data as { values: Record<string, unknown>[] }).values.filter((row) => row.labelX !== null);
    expect(placed.length).toBeLessThan(crowd.length);
    expect(JSON.stringify(crowded.spec)).toContain(`${crowd.length - placed.length} crowded labels left out`);
  });

  it('draw costs on axes spanning the costs, not intervals reaching 1e-113 or 597,393: bars clipped with an arrow, labels beside their points', () => {
    const extreme: CostPoint[] = [
      ...costPoints,
      { id: 'wall', name: 'Shield Wall', published: 20, fitted: 25, low: 1e-113, high: 597393.4, verdict: 'fair' },
    ];
    const scatter = costScatterChart(extreme, { id: 'extreme', labels: 'all' });
    const spec = JSON.stringify(scatter.spec);
    const domains = [...spec.matchAll(/"domain":\[([\d.e+-]+),([\d.e+-]+)\]/g)].map((match) => [Number(match[1]), Number(match[2])]);
    // Costs run from 4.1 to 40: the axes stay within a margin of them.
    for (const [low, high] of domains) {
      expect(low).toBeGreaterThan(2);
      expect(low).toBeLessThanOrEqual(4.1);
      expect(high).toBeGreaterThanOrEqual(40);
      expect(high).toBeLessThan(80);
    }
    const values = (scatter.spec.data as { values: Record<string, unknown>[] }).values;
    const wall = values.find((row) => row.name === 'Shield Wall')!;
    expect(wall.lowClipped).toBe(domains[0]![0]);
    expect(wall.highClipped).toBe(domains[0]![1]);
    expect(values.find((row) => row.name === 'Ogre')).toMatchObject({ lowClipped: null, highClipped: null });
    expect(spec).toContain('an arrow: it runs on beyond the chart');
    // A label's middle is at most 8 px from its point's (in pixels of the log axes: the same map both ways).
    const [low, high] = domains[0]!;
    const pixel = (value: number) => (Math.log(value / low!) / Math.log(high! / low!)) * (scatter.spec.width as number);
    for (const row of values.filter((row) => row.labelX !== null)) {
      expect(Math.abs(pixel(row.labelX as number) - pixel(row.published as number))).toBeCloseTo(8, 6);
      expect(Math.abs(pixel(row.labelY as number) - pixel(row.fitted as number))).toBeLessThanOrEqual(7 + 1e-9);
    }
  });

  it('colour a heatmap of losses with the scheme reversed (blue still good for the row) and draws with a neutral one', () => {
    const scaleOf = (measure: 'loss' | 'draw') => {
      const layers = heatmapChart(heatmapCells, { rowTitle: 'Unit', columnTitle: 'Opponent', measure }).spec.layer as {
        encoding: { color?: { scale?: Record<string, unknown> } };
      }[];
      return layers[0]?.encoding.color?.scale;
    };
    expect(scaleOf('loss')).toEqual({ scheme: 'redblue', domain: [0, 1], reverse: true });
    expect(scaleOf('draw')?.scheme).not.toBe('redblue');
    const mirror = heatmapChart([{ ...heatmapCells[0]!, mirror: true }], { rowTitle: 'Unit', columnTitle: 'Opponent' });
    expect(JSON.stringify(mirror.spec)).toContain('(the same game from both sides)');
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

  it('reject an unsafe id and a non-count "N or better"', async () => {
    const formation = await runScenario(await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml'), { trials: 100 });
    expect(() => atLeastChart(metric(formation, 'winner'))).toThrow(/count metric/);
    expect(() => distributionChart(metric(formation, 'winner'), { id: '../escape' })).toThrow(/chart id/);
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
