import type { PageTable, ReportPage } from '../../reports/page-model.js';
import { cellText, slugify, tableNumbers } from '../../reports/page-model.js';
import { csvText, download } from './download.js';
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
          {section.table === undefined ? null : <DataTable table={section.table} name={`${page.slug}-${slugify(section.heading)}`} caption={section.heading} />}
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
          <summary>
            The table: {table.rows.length} rows
          </summary>
          {body}
        </details>
      ) : (
        body
      )}
      <button type="button" class="csv" onClick={() => {
          const numbers = tableNumbers(table);
          download(`${name}.csv`, csvText(numbers.columns, numbers.rows), 'text/csv');
        }}>
        {caption}: CSV
      </button>
    </div>
  );
}

function TableBody({ table, caption }: { table: PageTable; caption: string }) {
  return (
    <>
      <div class="table-wrap" tabIndex={0} aria-label={`${caption} (table)`}>
        <table>
          <thead>
            <tr>
              {table.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              <tr key={r}>
                {row.map(cellText).map((cell, c) => (
                  <td key={c} class={typeof cell === 'number' || /^[−\-+±]?[\d.,]+ ?%?/.test(String(cell)) ? 'num' : undefined}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
