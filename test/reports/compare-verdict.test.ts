import { describe, expect, it } from 'vitest';
import type { CompareDocument } from '../../documents/compare-document.js';
import { comparePage, compareVerdict, leadOutcome } from '../../reports/compare-page.js';
import { escapeHtml, pageHtml } from '../../reports/html.js';
import { compareFixture } from './documents.js';

/**
 * The verdict a comparison leads with (reports/compare-page.ts), on documents whose numbers are
 * known: the fixture's variant wins 5 points more often (60% → 65%) and plays 0.1 rounds fewer.
 */

type Outcome = CompareDocument['outcomes'][number];

/** The fixture with its outcomes changed (and its metrics, when given). */
function withOutcomes(change: (outcome: Outcome) => Outcome, metrics?: string[]): CompareDocument {
  const document = compareFixture();
  return { ...document, outcomes: document.outcomes.map(change), ...(metrics === undefined ? {} : { metrics }) };
}

/** The winner outcome with another difference (the baseline stays 60%). */
const winnerMoved = (estimate: number, low: number, high: number, pValue: number) =>
  withOutcomes((outcome) =>
    outcome.metric === 'winner'
      ? {
          ...outcome,
          variant: { ...outcome.variant, estimate: outcome.baseline.estimate + estimate },
          difference: { ...outcome.difference, estimate, interval: { low, high }, pValue },
        }
      : outcome,
  );

describe('the compare verdict', () => {
  it('significant up: how many points more often, both chances, the interval as magnitudes and p', () => {
    expect(compareVerdict(compareFixture())).toBe(
      'With “least-damaged”, “Side that won: Knights” happens 5.00 points more often than with the scenario as written: 65% against 60% (95% interval 4.20 to 5.80 points more; p < 0.001).',
    );
  });

  it('significant down: less often, the interval still read low to high in points less', () => {
    expect(compareVerdict(winnerMoved(-0.122, -0.135, -0.109, 2e-5))).toBe(
      'With “least-damaged”, “Side that won: Knights” happens 12.2 points less often than with the scenario as written: 48% against 60% (95% interval 10.9 to 13.5 points less; p < 0.001).',
    );
  });

  it('not significant (the interval holds 0): no clear difference, the signed difference and p to two decimals', () => {
    expect(compareVerdict(winnerMoved(0.0015, -0.008, 0.011, 0.41))).toBe(
      'No clear difference in “Side that won: Knights” between “least-damaged” and the scenario as written: +0.15 points (95% interval −0.80 to +1.10 points; p = 0.41).',
    );
  });

  it('identical versions: no difference, said as such', () => {
    const same = withOutcomes((outcome) => ({
      ...outcome,
      variant: outcome.baseline,
      difference: { estimate: 0, standardError: 0, interval: { low: 0, high: 0 }, pValue: 1 },
    }));
    expect(compareVerdict(same)).toBe(
      'No difference in “Side that won: Knights”: “least-damaged” and the scenario as written gave the same result in every trial.',
    );
  });

  it('an average: how much more or less it averages, in its own units, to the digits of the table', () => {
    const rounds = withOutcomes((outcome) => outcome, ['rounds', 'winner']);
    expect(compareVerdict(rounds)).toBe(
      'With “least-damaged”, “Rounds started” averages 0.100 less than with the scenario as written: 3.100 against 3.200 (95% interval 0.060 to 0.140 less; p < 0.001).',
    );
  });

  it('leads with the first metric (the headline, or the first --metric); of outcomes that moved alike, the more common one', () => {
    expect(leadOutcome(withOutcomes((outcome) => outcome, ['rounds', 'winner']))?.metric).toBe('rounds');
    const document = compareFixture();
    const knights = document.outcomes[0] as Outcome;
    // A win turned into a draw: both move 5 points; the knights' win (60%) is more common than the draw (10%).
    const draw: Outcome = {
      ...knights,
      title: 'Side that won: none',
      label: 'none',
      value: 0,
      baseline: { ...knights.baseline, estimate: 0.1 },
      variant: { ...knights.variant, estimate: 0.05 },
      difference: { ...knights.difference, estimate: -0.05, interval: { low: -0.058, high: -0.042 } },
    };
    expect(leadOutcome({ ...document, outcomes: [draw, ...document.outcomes] })?.title).toBe('Side that won: Knights');
    // A metric never seen in either gives way to the next.
    expect(
      leadOutcome({
        ...document,
        outcomes: document.outcomes.map((outcome) => (outcome.metric === 'winner' ? { ...outcome, neverSeen: true } : outcome)),
      })?.metric,
    ).toBe('rounds');
  });

  it('the page leads with it, and with its how-to-read line', () => {
    const page = comparePage(compareFixture());
    expect(page.answer).toBe(compareVerdict(compareFixture()));
    expect(page.howToRead).toMatch(/95% interval .* p-value/);
  });
});

describe('the page HTML', () => {
  it('shows the answer and the how-to-read line under the question', () => {
    const html = pageHtml(comparePage(compareFixture()), new Map());
    expect(html).toContain(`<p class="answer">${escapeHtml(compareVerdict(compareFixture()))}</p>`);
    expect(html).toMatch(/<p class="how-to-read"><strong>How to read this:<\/strong> Each outcome /);
  });
});

describe('outcomes never seen with either version', () => {
  it('are listed once per metric, its labels after it', () => {
    const document = compareFixture();
    const knights = document.outcomes[0] as Outcome;
    const unseen = (label: string): Outcome => ({
      ...knights,
      metric: 'destroyedIn',
      title: `When it was destroyed (Knights): ${label}`,
      label,
      neverSeen: true,
    });
    const page = comparePage({
      ...document,
      outcomes: [
        ...document.outcomes,
        unseen('in round 6'),
        unseen('in round 7'),
        { ...knights, metric: 'advanced', title: 'Advances into a further engagement', neverSeen: true },
      ],
    });
    const text = page.sections.map((section) => section.text ?? '').join('\n');
    expect(text).toContain(
      'Never seen in either (left out of the chart): When it was destroyed (Knights): in round 6, in round 7; Advances into a further engagement.',
    );
  });
});
