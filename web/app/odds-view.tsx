import { useMemo } from 'preact/hooks';
import type { MetricSummary } from '../../statistics/summary.js';
import { metricTitle } from '../../input/field-labels.js';
import { percent, runReportJson, type RunReport } from '../../documents/format.js';
import { groupThousands } from '../../input/thousands.js';
import { atLeastChart, distributionChart } from '../../reports/charts.js';
import { METHOD_WORDS, monteCarloOf } from '../../sim/methods.js';
import type { OddsUpdate } from '../compute/odds.js';
import { slugify } from '../../reports/page-model.js';
import { distributionTable, runTable } from '../../documents/run-tables.js';
import { tableCsv } from '../../documents/table-model.js';
import { download } from './download.js';
import { VegaChart } from './vega-chart.js';

/**
 * The odds of the scenario as written: every metric's estimate and 95% interval (or its exact
 * value), growing as shards arrive, and the chosen metric's distribution and "N or more" charts.
 */

/** `run` counts the runs started: a test (or a person) can tell a new result from the last. */
export type OddsState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly run: number; readonly update?: OddsUpdate; readonly stale?: boolean }
  | { readonly kind: 'done'; readonly run: number; readonly update: OddsUpdate }
  | { readonly kind: 'failed'; readonly message: string };

// Two decimals, as `crucible run` prints them: a whole percent hides what an edit moved.
const intervalText = (summary: MetricSummary, low: number, high: number): string =>
  summary.trials === 0 ? 'exact' : `${percent(low)} – ${percent(high)}`;

/** Rows of the results table: each label of a category or flag, a count's mean and its chance of at least 1. */
function metricRows(summary: MetricSummary): string[][] {
  if (summary.kind === 'count') {
    const mean = summary.mean.toFixed(3);
    const rows = [
      [
        metricTitle(summary),
        'average',
        mean,
        summary.trials === 0 ? 'exact' : `${summary.meanInterval.low.toFixed(3)} – ${summary.meanInterval.high.toFixed(3)}`,
      ],
    ];
    const atLeastOne = summary.atLeast[0];
    if (atLeastOne !== undefined)
      rows.push([
        '',
        '1 or more',
        percent(atLeastOne.probability),
        intervalText(summary, atLeastOne.interval.low, atLeastOne.interval.high),
      ]);
    return rows;
  }
  const shown = summary.kind === 'flag' ? summary.distribution.filter((entry) => entry.value === 1) : summary.distribution;
  return shown.map((entry, index) => [
    index === 0 ? metricTitle(summary) : '',
    summary.kind === 'flag' ? 'yes' : (entry.label ?? String(entry.value)),
    percent(entry.probability),
    intervalText(summary, entry.interval.low, entry.interval.high),
  ]);
}

/** The line under the table, for a reader who is not a statistician: sampled or exact. */
const HOW_TO_READ = {
  sampled:
    'The estimate is the share of the simulated games that ended so; the true chance (or average) very likely lies within its 95% interval, which narrows as more games are played.',
  exact: 'Exact: every possible roll was counted, so these are the true chances, with no margin of error.',
} as const;

function statusText(state: OddsState): string {
  if (state.kind === 'idle') return 'Waiting for a valid scenario.';
  if (state.kind === 'failed') return state.message;
  const update = state.update;
  if (update === undefined) return 'Starting…';
  if (state.kind === 'running' && state.stale === true) return 'Recomputing for your change…';
  const report = update.report;
  if (report.exact !== undefined) return `Exact: ${METHOD_WORDS.exact} (${groupThousands(report.exact.paths)} paths).`;
  const method = METHOD_WORDS[monteCarloOf(report.method)];
  if (state.kind === 'done' && !update.done)
    return `Stopped at ${groupThousands(report.trials)} of ${groupThousands(update.trialsPlanned)} trials (Monte Carlo, ${method}): the numbers are of those trials.`;
  if (!update.done)
    return `Monte Carlo (${method}): ${groupThousands(report.trials)} of ${groupThousands(update.trialsPlanned)} trials, refining…`;
  return `Monte Carlo (${method}): ${groupThousands(report.trials)} trials, seed ${report.seed}.`;
}

export function OddsView({ state, metric, onMetric }: { state: OddsState; metric: string | undefined; onMetric: (name: string) => void }) {
  const report: RunReport | undefined = state.kind === 'running' || state.kind === 'done' ? state.update?.report : undefined;
  const chosen = report?.metrics.find((summary) => summary.name === metric) ?? report?.metrics[0];
  const charts = useMemo(() => {
    if (chosen === undefined) return [];
    const title = metricTitle(chosen);
    const made = [distributionChart(chosen, { title: `${title}: how often each outcome happens`, xTitle: title })];
    if (chosen.kind === 'count' && chosen.atLeast.length > 0)
      made.push(atLeastChart(chosen, { title: `${title}: chance of N or more`, xTitle: title }));
    return made;
  }, [chosen]);
  const rows = report?.metrics.flatMap(metricRows) ?? [];
  return (
    <section
      class="odds"
      aria-label="Odds"
      data-stale={state.kind === 'running' && state.stale === true ? 'true' : undefined}
      aria-busy={state.kind === 'running'}
    >
      <p
        class={`status ${state.kind === 'failed' ? 'problem' : ''}`}
        role="status"
        data-state={state.kind}
        data-run={state.kind === 'running' || state.kind === 'done' ? state.run : undefined}
      >
        {statusText(state)}
      </p>
      {report === undefined ? null : (
        <>
          <div class="table-wrap" tabIndex={0} aria-label="Results (table)">
            <table class="results">
              <thead>
                <tr>
                  <th scope="col">Metric</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">{report.exact === undefined ? 'Estimate' : 'Exact'}</th>
                  <th scope="col">95% interval</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, r) => (
                  <tr key={r}>
                    <th scope="row">{row[0]}</th>
                    <td>{row[1]}</td>
                    <td class="num">{row[2]}</td>
                    <td class="num">{row[3]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="how-to-read">
            <strong>How to read this:</strong> {report.exact === undefined ? HOW_TO_READ.sampled : HOW_TO_READ.exact}
          </p>
          <div class="row-actions">
            <button
              type="button"
              onClick={() =>
                // The table `crucible run --out x.csv` writes: numbers as numbers, the interval's ends in columns of their own.
                download(`${slugify(report.scenario)}.csv`, tableCsv(runTable(report)), 'text/csv')
              }
            >
              Results as CSV
            </button>
            <button
              type="button"
              onClick={() =>
                download(`${slugify(report.scenario)}.json`, `${JSON.stringify(runReportJson(report), null, 2)}\n`, 'application/json')
              }
            >
              Results as JSON (as crucible run --json)
            </button>
          </div>
          <label class="field-inline" for="metric-choice">
            Chart of
            <select id="metric-choice" value={chosen?.name} onChange={(event) => onMetric(event.currentTarget.value)}>
              {report.metrics.map((summary) => (
                <option key={summary.name} value={summary.name}>
                  {metricTitle(summary)}
                </option>
              ))}
            </select>
          </label>
          {chosen === undefined ? null : (
            <>
              <div class="charts">
                {charts.map((chart) => (
                  <VegaChart key={chart.id} chart={chart} />
                ))}
              </div>
              <div class="row-actions">
                <button
                  type="button"
                  onClick={() =>
                    download(`${slugify(report.scenario)}-${slugify(chosen.name)}.csv`, tableCsv(distributionTable(chosen)), 'text/csv')
                  }
                >
                  This distribution as CSV
                </button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
