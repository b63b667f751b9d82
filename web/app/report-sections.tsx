import type { PageTable, ReportPage } from '../../reports/page-model.js';
import { tableCsv } from '../../documents/table-model.js';
import { cellText, pageTableData, printBlocks, slugify } from '../../reports/page-model.js';
import { download } from './download.js';
import { VegaChart } from './vega-chart.js';

/**
 * The sections of one of the CLI's report pages (matchups, compare, balance: reports/*-page.ts),
 * shown in the workbench: headings, text, charts and tables, each table with a CSV download.
 */
export function ReportSections({ page }: { page: ReportPage }) {
  return (
    <div class="report">
      <p class="question">{page.question}</p>
      {page.answer === undefined ? null : <p class="answer">{page.answer}</p>}
      {page.howToRead === undefined ? null : (
        <p class="how-to-read">
          <strong>How to read this:</strong> {page.howToRead}
        </p>
      )}
      {page.sections.map((section, index) => (
        <section key={`${index}-${section.heading}`}>
          <h3>{section.heading}</h3>
          {section.text === undefined
            ? null
            : section.text.split(/\n\s*\n/).map((paragraph, p) => (
                <p key={p} class="section-text">
                  {paragraph}
                </p>
              ))}
          {section.chart === undefined ? null : <VegaChart chart={section.chart} />}
          {section.table === undefined ? null : (
            <DataTable table={section.table} name={`${page.slug}-${slugify(section.heading)}`} caption={section.heading} />
          )}
        </section>
      ))}
      {page.methods.length === 0 ? null : (
        <details class="methods">
          <summary>How these numbers were made</summary>
          {page.methods.map((paragraph, index) => (
            <p key={index}>{paragraph}</p>
          ))}
        </details>
      )}
    </div>
  );
}

/** Longer tables start folded: a 20-entry roster's pairings are 400 rows. */
const ROWS_SHOWN_OPEN = 25;

export function DataTable({ table, name, caption }: { table: PageTable; name: string; caption: string }) {
  const body = <TableBody table={table} caption={caption} />;
  return (
    <div class="table-block">
      {table.rows.length > ROWS_SHOWN_OPEN ? (
        <details>
          <summary>The table: {table.rows.length} rows</summary>
          {body}
        </details>
      ) : (
        body
      )}
      <button type="button" class="csv" onClick={() => download(`${name}.csv`, tableCsv(pageTableData(table, caption)), 'text/csv')}>
        {caption}: CSV
      </button>
    </div>
  );
}

function TableBody({ table, caption }: { table: PageTable; caption: string }) {
  const grid = (indices: readonly number[]) => (
    <table>
      <thead>
        <tr>
          {indices.map((i) => (
            <th key={i} scope="col">
              {table.columns[i]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, r) => (
          <tr key={r}>
            {indices.map((i) => {
              const cell = cellText(row[i] ?? '');
              return (
                <td key={i} class={typeof cell === 'number' || /^[−\-+±]?[\d.,]+ ?%?/.test(String(cell)) ? 'num' : undefined}>
                  {cell}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
  // Printed, a wide table comes in blocks of columns, each with the row labels (as the report pages print it).
  const blocks = printBlocks(table.columns.length);
  return (
    <>
      <div class={blocks.length === 0 ? 'table-wrap' : 'table-wrap has-print-blocks'} tabIndex={0} aria-label={`${caption} (table)`}>
        {grid(table.columns.map((_, i) => i))}
      </div>
      {blocks.length === 0 ? null : (
        <div class="print-blocks" aria-hidden="true">
          {blocks.map((block, b) => (
            <div class="print-block" key={b}>
              <p class="print-block-caption">
                Columns {block[0]}–{block.at(-1)} of {table.columns.length - 1} (part {b + 1} of {blocks.length})
              </p>
              {grid([0, ...block])}
            </div>
          ))}
        </div>
      )}
    </>
  );
}
