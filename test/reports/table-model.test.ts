import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../documents/format.js';
import { runTable } from '../../documents/run-tables.js';
import { BOM, type DataTable, printDocument, printedParts, printTable, tableCsv, tableJson } from '../../documents/table-model.js';
import { documentHtml } from '../../reports/table-page.js';
import { summarizeExact, summarizeHistogram } from '../../statistics/summary.js';

/**
 * The one table model the commands print and write (documents/table-model.ts): the same columns in
 * the same order in every format; CSV a csv reader takes as it is (a header, one line a row, no
 * blank line after the last, numbers as numbers, an interval's ends in columns of their own, text
 * a spreadsheet would run as a formula kept as text); JSON the same columns and rows.
 */

const TABLE: DataTable = {
  title: 'Knights, "the brave" | others',
  columns: [
    { name: 'unit', heading: 'Unit' },
    { name: 'id', only: 'data' },
    { name: 'score', heading: 'Score', bounds: true, boundsHeading: '95% interval' },
    { name: '3', description: 'a column named like a number keeps its place' },
    { name: 'note', only: 'print' },
  ],
  rows: [
    ['Knights, the brave', 'k', { value: 0.62, text: '62% ±3', low: 0.59, high: 0.65, boundsText: '[59%, 65%]' }, 1, 'a | b'],
    ['=SUM(A1)', 'e', { value: 1e-7, text: '<0.01%', low: null, high: null }, null, ''],
    ['Say "hi"\nthere', 'q', null, true, ''],
  ],
  notes: ['What a cell means.'],
};

describe('the table model', () => {
  it('CSV: a header and one line a row, no blank line at the end; numbers as numbers; intervals in columns of their own; quoting; formulas kept as text; --bom', () => {
    const csv = tableCsv(TABLE);
    expect(csv.split('\n')[0]).toBe('unit,id,score,score low,score high,3');
    expect(csv).toBe(
      [
        'unit,id,score,score low,score high,3',
        '"Knights, the brave",k,0.62,0.59,0.65,1',
        "'=SUM(A1),e,1e-7,,,",
        '"Say ""hi""\nthere",q,,,,true',
        '',
      ].join('\n'),
    );
    expect(csv.endsWith('\n')).toBe(true);
    expect(csv.endsWith('\n\n')).toBe(false);
    expect(tableCsv(TABLE, { bom: true })).toBe(`${BOM}${csv}`);
  });

  it('JSON: the same columns in the same order (a number-like name too), rows as arrays, the notes', () => {
    const json = JSON.parse(tableJson(TABLE)) as { title: string; columns: { name: string }[]; rows: unknown[][]; notes: string[] };
    expect(json.columns.map((column) => column.name)).toEqual(['unit', 'id', 'score', 'score low', 'score high', '3']);
    expect(json.rows[0]).toEqual(['Knights, the brave', 'k', 0.62, 0.59, 0.65, 1]);
    expect(json.rows[2]).toEqual(['Say "hi"\nthere', 'q', null, null, null, true]);
    expect(json.notes).toEqual(['What a cell means.']);
  });

  it('print: the columns a person reads, the interval in its own column, plain numbers right-aligned; Markdown escapes |', () => {
    const text = printTable(TABLE, 'text', { titled: false }).join('\n');
    const [header, rule, first] = text.split('\n');
    expect(header).toBe('Unit                Score   95% interval  3     note');
    expect(rule).toBe('------------------  ------  ------------  ----  -----');
    expect(first).toBe('Knights, the brave  62% ±3  [59%, 65%]    1     a | b');
    const md = printTable(TABLE, 'md').join('\n');
    expect(md).toContain('**Knights, "the brave" | others**');
    expect(md).toContain('| Unit | Score | 95% interval | 3 | note |\n|:---|:---|:---|:---|:---|');
    // A column of plain numbers is right-aligned, in the terminal and in Markdown.
    const numbers: DataTable = { title: '', columns: [{ name: 'n' }], rows: [[1], [22]] };
    expect(printTable(numbers, 'text', { titled: false })[0]).toBe(' n\n--\n 1\n22');
    expect(printTable(numbers, 'md', { titled: false })[0]).toContain('|---:|');
    expect(md).toContain('| 62% ±3 | [59%, 65%] | 1 | a \\| b |');
  });

  it('blocks of columns repeat the row labels, each under its title', () => {
    const parts = printedParts({
      ...TABLE,
      blocks: {
        keys: 1,
        list: [
          { title: 'first', columns: [2] },
          { title: 'second', columns: [3] },
        ],
      },
    });
    expect(parts.map((part) => [part.title, part.columns.map((column) => column.heading)])).toEqual([
      ['first', ['Unit', 'Score', '95% interval']],
      ['second', ['Unit', '3']],
    ]);
  });

  it('a printout: title, lines, tables and legend alike in text, Markdown and HTML (escaped)', () => {
    const document = {
      title: 'A <b>title</b>',
      entries: [['seed', '1']] as [string, string][],
      tables: [TABLE],
      after: ['After.'],
      data: TABLE,
    };
    expect(printDocument(document, 'text')).toMatch(/^A <b>title<\/b>\n {2}seed {5}1\n\nKnights, "the brave" \| others\n\nUnit /);
    expect(printDocument(document, 'md')).toMatch(/^\*\*A <b>title<\/b>\*\*\n\n- seed: 1\n/);
    const html = documentHtml(document);
    expect(html).toContain('<h1>A &#60;b&#62;title&#60;/b&#62;</h1>');
    expect(html).toContain('<td class="num" data-label="Score">62% ±3</td>');
    expect(html).toContain('@media print');
  });

  it('a run (ready for `crucible run --out`): a row per outcome; exact without intervals, Monte Carlo with them', () => {
    const head = {
      scenario: 'A fight',
      file: 'fight.yaml',
      ruleset: 'heroic',
      engineVersion: 'heroic-1.1.0',
      unitsDigest: 'a'.repeat(64),
      seed: 1,
      workers: 0,
    };
    const winner = { name: 'winner', kind: 'category' as const, description: 'the winner', labels: ['none', 'Knights'], max: 1 };
    const exact: RunReport = {
      ...head,
      method: 'exact',
      exact: { paths: 2, errorBound: 1e-15 },
      trials: 0,
      metrics: summarizeExact([winner], [Float64Array.from([0.25, 0.75])]),
    };
    const csv = tableCsv(runTable(exact)).split('\n');
    expect(csv[0]).toBe('metric,outcome,measure,estimate,estimate low,estimate high');
    expect(csv[2]).toBe('winner,Knights,probability,0.75,,');
    expect(printTable(runTable(exact), 'text', { titled: false })[0]).toMatch(/^metric +outcome +measure +exact$/m);
    const sampled: RunReport = {
      ...head,
      method: 'mc',
      trials: 100,
      metrics: [summarizeHistogram('wounds', 'count', 'wounds dealt', [50, 50])],
    };
    const rows = tableCsv(runTable(sampled)).split('\n');
    expect(rows[1]).toMatch(/^wounds,mean,mean,0\.5,0\.4\d+,0\.5\d+$/);
    expect(rows[2]).toMatch(/^wounds,value 0,probability,0\.5,0\.4\d+,0\.5\d+$/);
  });
});
