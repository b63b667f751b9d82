import { describe, expect, it } from 'vitest';
import { summarizeHistogram } from '../../statistics/summary.js';
import { distributionChart } from '../../reports/charts.js';
import { differenceText } from '../../reports/format.js';
import { MIN_CHART_SCALE, pageHtml } from '../../reports/html.js';
import { slugify } from '../../reports/page.js';

/** How pages write numbers and names: checked against hand-worked cases. */
describe('page numbers and names', () => {
  it('prints a difference to two significant digits of its half-width, so it agrees with its p-value', () => {
    // −0.09 points, half-width 0.042: at one decimal it read "−0.1 points [−0.1, 0.0]", as if 0 were inside.
    expect(differenceText(-0.0009, { low: -0.00132, high: -0.00048 }, 'chance')).toBe('−0.090 points [−0.132, −0.048]');
    expect(differenceText(0.05, { low: 0.04, high: 0.06 }, 'chance')).toBe('+5.0 points [+4.0, +6.0]');
    expect(differenceText(0.2, { low: 0.05, high: 0.35 }, 'chance')).toBe('+20 points [+5, +35]');
    expect(differenceText(-0.2676, { low: -0.2752, high: -0.2599 }, 'mean')).toBe('−0.2676 [−0.2752, −0.2599]');
    expect(differenceText(0, { low: 0, high: 0 }, 'chance')).toBe('0.0 points [0.0, 0.0]');
  });

  it('cuts a long slug where a word ends', () => {
    const slug = slugify("matchups Battle Forge core infantry at 10 models (costs from the app's points formula)");
    // Cut at a word, then a hash of the whole, so two long names that share a start stay apart.
    expect(slug).toMatch(/^matchups-battle-forge-core-infantry-at-10-models-costs-from-the-app-s-[0-9a-f]{8}$/);
    expect(slugify("matchups Battle Forge core infantry at 10 models (costs from the app's points formula, v2)")).not.toBe(slug);
    expect(slugify('x'.repeat(100))).toHaveLength(80);
    expect(slugify('Knights vs Ogre!')).toBe('knights-vs-ogre');
  });

  it('lets a chart shrink on a narrow screen only down to MIN_CHART_SCALE, then scroll in its box', () => {
    const chart = distributionChart(summarizeHistogram('hits', 'count', 'hits scored', [5, 5]), { id: 'hits' });
    const html = pageHtml(
      { slug: 'p', title: 'T', question: 'Q', sections: [{ heading: 'H', chart }], provenance: [], methods: [] },
      new Map([['hits', '<svg width="500" height="300"></svg>']]),
    );
    expect(html).toContain(`--chart-min-width: ${Math.round(500 * MIN_CHART_SCALE)}px`);
    expect(html).toMatch(/\.chart-scroll \{ overflow-x: auto/);
  });
});
