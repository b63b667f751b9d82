import type { MetricSummary } from '../statistics/summary.js';
import { percent, provenanceEntries, type RunReport, runMethodEntries } from './format.js';
import type { Cell, Column, DataTable, OutputDocument } from './table-model.js';

/**
 * One run as a table of the one model (documents/table-model.ts), what `crucible run --out` writes
 * (and the workbench's CSV download): a row per outcome — each label of a category, a flag's "yes", a count's
 * mean and each value it took ("value 3") — with the estimate and its 95% interval (none when exact), printed
 * as `crucible run` prints a probability or a mean.
 */
export function runTable(report: RunReport): DataTable {
  const exact = report.exact !== undefined;
  const columns: Column[] = [
    { name: 'metric', description: 'the metric (what --metric takes)' },
    { name: 'outcome', description: 'a category\'s label, "yes" for a flag, "mean" or "value v" for a count' },
    { name: 'measure', description: 'probability or mean' },
    {
      name: 'estimate',
      heading: exact ? 'exact' : 'estimate',
      description: exact ? 'exact: every outcome enumerated' : 'Monte Carlo estimate',
      bounds: true,
      ...(exact ? {} : { boundsHeading: '95% interval' }),
      align: 'right',
    },
  ];
  const interval = (low: number, high: number, text: (value: number) => string) =>
    exact ? { low: null, high: null, boundsText: '' } : { low, high, boundsText: `[${text(low)}, ${text(high)}]` };
  const probability = (value: number, low: number, high: number): Cell => ({
    value,
    text: percent(value),
    ...interval(low, high, (end) => percent(end)),
  });
  const rows: Cell[][] = [];
  for (const summary of report.metrics) {
    if (summary.kind === 'count') {
      rows.push([
        summary.name,
        'mean',
        'mean',
        {
          value: summary.mean,
          text: summary.mean.toFixed(3),
          ...interval(summary.meanInterval.low, summary.meanInterval.high, (end) => end.toFixed(3)),
        },
      ]);
      for (const entry of summary.distribution)
        rows.push([
          summary.name,
          `value ${entry.value}`,
          'probability',
          probability(entry.probability, entry.interval.low, entry.interval.high),
        ]);
      continue;
    }
    const shown = summary.kind === 'flag' ? summary.distribution.filter((entry) => entry.value === 1) : summary.distribution;
    for (const entry of shown)
      rows.push([
        summary.name,
        entry.label ?? String(entry.value),
        'probability',
        probability(entry.probability, entry.interval.low, entry.interval.high),
      ]);
  }
  return { title: report.scenario, columns, rows };
}

/** One run as a printout (`crucible run --out x.md` or `x.html`): its header as `crucible run` prints it, then its table. */
export function runPrintout(report: RunReport): OutputDocument {
  const table = runTable(report);
  return {
    title: report.scenario,
    entries: [
      ['file', report.file],
      ['ruleset', `${report.ruleset} (engine ${report.engineVersion})${report.mode === undefined ? '' : `, mode ${report.mode}`}`],
      ...provenanceEntries(report),
      ...runMethodEntries(report),
    ],
    tables: [table],
    data: table,
  };
}

/** One metric's distribution as a table (the workbench's download): each value with its label, count and probability, its interval's ends beside it. */
export function distributionTable(summary: MetricSummary, title = summary.name): DataTable {
  const exact = summary.trials === 0;
  return {
    title,
    columns: [
      { name: 'value', description: "the metric's value (a category's code)" },
      { name: 'label', description: "a category's label; empty for a count" },
      { name: 'count', description: 'trials with this value (empty when exact)' },
      { name: 'probability', description: 'its share of the trials, or its exact probability', bounds: true },
    ],
    rows: summary.distribution.map((entry) => [
      entry.value,
      entry.label ?? '',
      exact ? null : entry.count,
      {
        value: entry.probability,
        text: percent(entry.probability),
        low: exact ? null : entry.interval.low,
        high: exact ? null : entry.interval.high,
      },
    ]),
  };
}
