import type { Interval } from '../statistics/intervals.js';
import { metricSummaryJson, type MetricSummary, type ValueProbability } from '../statistics/summary.js';
import { provenanceJson, provenanceLines, type RulesProvenance } from '../input/provenance.js';
import { groupThousands } from '../input/thousands.js';
import { type AnswerMethod, METHOD_WORDS, methodText, monteCarloOf } from '../sim/methods.js';

/**
 * Plain-text rendering of a run. Everything here is a pure function of its inputs (no locale, no
 * clock), so the same run prints the same bytes on every machine.
 */
export interface RunReport extends RulesProvenance {
  readonly scenario: string;
  readonly file: string;
  /** `exact`: every outcome enumerated; `mc`: Monte Carlo drawing from tables; `mc-dice`: rolling every die. */
  readonly method: AnswerMethod;
  /** Exact runs: how many paths one trial can take, and the bound on every probability's error. */
  readonly exact?: { readonly paths: number; readonly errorBound: number };
  readonly seed: number;
  /** Trials actually run (under --precision, where the stop rule held). */
  readonly trials: number;
  /** Worker threads that ran the shards; 0: the main thread. */
  readonly workers: number;
  readonly precision?: PrecisionReport;
  readonly metrics: readonly MetricSummary[];
}

/** The outcome of a `--precision` run. */
export interface PrecisionReport {
  /** ε: every reported probability's 95% interval was to end within ±target of it. */
  readonly target: number;
  readonly maxTrials: number;
  /** False when maxTrials ran out first. */
  readonly reached: boolean;
  /** The widest half-width achieved, over every reported probability. */
  readonly widestHalfWidth: number;
  /** The widest half-width achieved per metric. */
  readonly halfWidths: Readonly<Record<string, number>>;
}

/** A fixed-point number that never prints as "-0.000". */
function fixed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text;
}

/**
 * A probability as a percentage with `digits` decimals, or more when needed so that a probability
 * that is not exactly 0 or 1 never prints as "0.00%" or "100.00%" (an interval bound of 0.0038%
 * says something "0.00%" hides).
 */
export function percent(probability: number, digits = 2): string {
  let decimals = digits;
  let text = fixed(probability * 100, decimals);
  const roundsToZero = (): boolean => probability > 0 && Number(text) === 0;
  const roundsToAll = (): boolean => probability < 1 && Number(text) === 100;
  while ((roundsToZero() || roundsToAll()) && decimals < MAX_PERCENT_DECIMALS) text = fixed(probability * 100, ++decimals);
  // Beyond that, a bound: "0.0000000000%" would claim a 0 that is not there.
  if (roundsToZero()) return `<${fixed(10 ** -decimals, decimals)}%`;
  if (roundsToAll()) return `>${fixed(100 - 10 ** -decimals, decimals)}%`;
  return `${text}%`;
}

/** The most decimals `percent` prints (1e-10 points): past them, it prints a bound. */
const MAX_PERCENT_DECIMALS = 10;
const meanIntervalText = (interval: Interval): string => `[${fixed(interval.low, 3)}, ${fixed(interval.high, 3)}]`;

/** At most this many single values in a count metric's one-line distribution. */
const DISTRIBUTION_COLUMNS = 8;
/** Tails rarer than this are folded into "≤a" / "≥b" columns. */
const TAIL = 0.005;

/**
 * A count metric's distribution on one line: "0: 12.3%  1: 40.1%  2: 30.0%  ≥3: 17.6%". Rare tails
 * (under 0.5% together), and values beyond DISTRIBUTION_COLUMNS columns, fold into ≤/≥ columns.
 */
export function compactDistribution(summary: MetricSummary): string {
  const seen = summary.distribution;
  const first = seen[0];
  const last = seen.at(-1);
  if (first === undefined || last === undefined) return '';
  const byValue = new Map(seen.map((entry) => [entry.value, entry.probability] as const));
  const probabilityOf = (v: number): number => byValue.get(v) ?? 0;
  const between = (from: number, to: number): number => {
    let total = 0;
    for (let v = from; v <= to; v++) total += probabilityOf(v);
    return total;
  };
  let low = first.value;
  while (low < last.value && between(first.value, low) < TAIL) low++;
  let high = last.value;
  while (high > low && between(high, last.value) < TAIL) high--;
  high = Math.min(high, low + DISTRIBUTION_COLUMNS - 1);
  // A folded tail is named by the values it holds: one value by itself ("0: 0.1%", not "≤8: 0.1%").
  const valuesIn = (from: number, to: number): number[] =>
    seen.filter((entry) => entry.value >= from && entry.value <= to && entry.probability > 0).map((entry) => entry.value);
  const columns: string[] = [];
  if (low > first.value) {
    const held = valuesIn(first.value, low - 1);
    columns.push(`${held.length === 1 ? held[0] : `≤${held.at(-1) ?? low - 1}`}: ${percent(between(first.value, low - 1), 1)}`);
  }
  for (let v = low; v <= high; v++) columns.push(`${v}: ${percent(probabilityOf(v), 1)}`);
  if (high < last.value) {
    const held = valuesIn(high + 1, last.value);
    columns.push(`${held.length === 1 ? held[0] : `≥${held[0] ?? high + 1}`}: ${percent(between(high + 1, last.value), 1)}`);
  }
  return columns.join('  ');
}

type Row = readonly [metric: string, value: string, estimate: string, interval: string];

/** A category with more labels than this prints those that never occurred on one line. */
const CATEGORY_ROWS = 6;

/** `exact`: no intervals to print (the values carry no sampling error). */
function metricRows(summary: MetricSummary, exact: boolean): Row[] {
  const percentInterval = (interval: Interval): string => (exact ? '' : `[${percent(interval.low)}, ${percent(interval.high)}]`);
  switch (summary.kind) {
    case 'category': {
      // A long category (the round a unit fell in) lists the labels that never occurred on one row.
      const fold = summary.distribution.length > CATEGORY_ROWS;
      const shown = fold ? summary.distribution.filter((entry) => entry.probability > 0) : summary.distribution;
      const never = fold ? summary.distribution.filter((entry) => !(entry.probability > 0)) : [];
      const rows = shown.map(
        (entry, i): Row => [
          i === 0 ? summary.name : '',
          entry.label ?? String(entry.value),
          percent(entry.probability),
          percentInterval(entry.interval),
        ],
      );
      const first = never[0];
      if (first !== undefined) {
        const names = never.map((entry) => entry.label ?? String(entry.value)).join(', ');
        const each = percentInterval(first.interval);
        rows.push([
          rows.length === 0 ? summary.name : '',
          never.length === 1 ? names : `${never.length} others`,
          percent(0),
          never.length === 1 ? each : `${each === '' ? '' : `${each} `}each: ${names}`,
        ]);
      }
      return rows;
    }
    case 'flag': {
      // A flag's "no" is the complement of its "yes": print the probability that it is set.
      const set: ValueProbability | undefined = summary.distribution.find((entry) => entry.value === 1);
      return set === undefined ? [] : [[summary.name, set.label ?? 'yes', percent(set.probability), percentInterval(set.interval)]];
    }
    case 'count': {
      const only = summary.distribution.length === 1 ? summary.distribution[0] : undefined;
      if (only !== undefined) return [[summary.name, 'always', String(only.value), '']];
      return [
        [
          summary.name,
          'mean',
          fixed(summary.mean, 3),
          `${exact ? '' : `${meanIntervalText(summary.meanInterval)}  `}sd ${fixed(summary.sd, 3)}`,
        ],
        ['', 'P(=v)', '', compactDistribution(summary)],
      ];
    }
  }
}

/** Left-aligned text columns; the estimate column is right-aligned. The last column is not padded. */
function table(rows: readonly Row[]): string[] {
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((row) => [...row[c as 0 | 1 | 2]].length)));
  const pad = (text: string, width: number, right = false): string => {
    const fill = ' '.repeat(Math.max(0, width - [...text].length));
    return right ? fill + text : text + fill;
  };
  return rows.map((row) => {
    const [metric, value, estimate, interval] = row;
    const line = `  ${pad(metric, widths[0] ?? 0)}  ${pad(value, widths[1] ?? 0)}  ${pad(estimate, widths[2] ?? 0, true)}  ${interval}`;
    return line.trimEnd();
  });
}

/** `names` joined by commas after `lead`, wrapped to lines of about 100 characters. */
function wrap(lead: string, names: readonly string[]): string[] {
  const indent = `  ${' '.repeat(lead.length)}`;
  const lines: string[] = [];
  let line = `  ${lead}`;
  names.forEach((name, i) => {
    const piece = `${name}${i < names.length - 1 ? ',' : ''}`;
    if (line.trim() !== lead.trim() && line.length + 1 + piece.length > 100) {
      lines.push(line);
      line = `${indent}${piece}`;
    } else line += line.endsWith(' ') ? piece : ` ${piece}`;
  });
  lines.push(line);
  return lines;
}

/** E.g. "±0.1% reached: widest 95% interval ±0.0987% (cap 1,000,000,000 trials)". */
function precisionLine(precision: PrecisionReport): string {
  const outcome = precision.reached ? 'reached' : 'NOT reached';
  return `±${percent(precision.target, 3)} ${outcome}: widest 95% interval ±${percent(precision.widestHalfWidth, 4)} (cap ${groupThousands(precision.maxTrials)} ${precision.maxTrials === 1 ? 'trial' : 'trials'})`;
}

/** The text report of one scenario run. */
export function formatRunReport(report: RunReport): string {
  const header = [
    report.scenario,
    `  file     ${report.file}`,
    `  ruleset  ${report.ruleset} (engine ${report.engineVersion})${report.mode === undefined ? '' : `, mode ${report.mode}`}`,
    ...provenanceLines(report, '  '),
    ...runMethodEntries(report).map(([key, value]) => `  ${key.padEnd(8)} ${value}`),
    '',
  ];
  const rows: Row[] = [report.exact === undefined ? ['metric', 'value', 'estimate', '95% interval'] : ['metric', 'value', 'exact', '']];
  // Counts that were 0 in every trial (no charges, no Torment…) would fill the table with zeros.
  const alwaysZero = report.metrics.filter(
    (summary) => summary.kind === 'count' && summary.distribution.length === 1 && summary.distribution[0]?.value === 0,
  );
  for (const summary of report.metrics) if (!alwaysZero.includes(summary)) rows.push(...metricRows(summary, report.exact !== undefined));
  const footer =
    alwaysZero.length > 0
      ? [
          '',
          ...wrap(
            'always 0: ',
            alwaysZero.map((summary) => summary.name),
          ),
        ]
      : [];
  return `${[...header, ...table(rows), ...footer].join('\n')}\n`;
}

/** How a run's numbers were made, as its header says it: the method, and the seed, trials and precision of a sampled run. */
export function runMethodEntries(report: RunReport): [string, string][] {
  const entries: [string, string][] =
    report.exact === undefined
      ? [
          ['method', methodText(monteCarloOf(report.method))],
          ['seed', String(report.seed)],
          ['trials', groupThousands(report.trials)],
        ]
      : [
          [
            'method',
            `exact: ${METHOD_WORDS.exact} (${groupThousands(report.exact.paths)} paths; each probability within ±${report.exact.errorBound.toExponential(1)})`,
          ],
        ];
  if (report.precision !== undefined) entries.push(['precision', precisionLine(report.precision)]);
  return entries;
}

/** The JSON document of one scenario run (the `--json` output). */
export function runReportJson(report: RunReport): Record<string, unknown> {
  return {
    scenario: report.scenario,
    file: report.file,
    ...provenanceJson(report),
    method: report.method,
    ...(report.exact === undefined ? { seed: report.seed, trials: report.trials } : { exact: report.exact }),
    ...(report.precision === undefined ? {} : { precision: report.precision }),
    metrics: report.metrics.map((summary) => metricSummaryJson(summary, report.exact !== undefined)),
  };
}

/** provenanceLines (input/provenance.ts) as key/value entries (a printout's header lines). */
export function provenanceEntries(provenance: RulesProvenance): [string, string][] {
  return provenanceLines(provenance, '').map((line) => {
    const match = /^(\S+)\s+(.*)$/.exec(line);
    return match === null ? ['', line] : [match[1] as string, match[2] as string];
  });
}
