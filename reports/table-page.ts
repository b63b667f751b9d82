import { type OutputDocument, printedParts } from '../documents/table-model.js';
import { escapeHtml, htmlDocument, tableHtml } from './html.js';

/**
 * `--out x.html` of the analysis commands: what the terminal prints, as a page with the report's
 * stylesheet — one file, no scripts, that prints on A4 or Letter (a wide matrix in blocks of
 * columns, each with the row labels and headers).
 */
export function documentHtml(document: OutputDocument): string {
  const paragraph = (text: string): string => `<p>${escapeHtml(text)}</p>`;
  const entries = document.entries ?? [];
  const head = [
    `<h1>${escapeHtml(document.title)}</h1>`,
    // A lead of indented lines (matchups' file, runs and seed) is a note under the title; otherwise it is the answer (a verdict).
    ...(document.lead ?? []).map((line) => `<p class="${line.startsWith(' ') ? 'meta' : 'answer'}">${escapeHtml(line.trim())}</p>`),
    ...(entries.length === 0
      ? []
      : [
          `<ul class="entries">\n${entries.map(([key, value]) => `<li>${key === '' ? '' : `<strong>${escapeHtml(key)}</strong> `}${escapeHtml(value)}</li>`).join('\n')}\n</ul>`,
        ]),
  ];
  const tables = document.tables.flatMap((table) => [
    ...printedParts(table).flatMap((part) => [
      ...(part.title === '' || part.title === document.title ? [] : [`<h2>${escapeHtml(part.title)}</h2>`]),
      tableHtml({
        columns: part.columns.map((column) => column.heading),
        rows: (part.columns[0]?.cells ?? []).map((_, r) => part.columns.map((column) => column.cells[r] ?? '')),
      }),
      ...part.notes.map(paragraph),
    ]),
    ...(table.blocks === undefined ? [] : (table.notes ?? []).map(paragraph)),
  ]);
  const body = `<header>\n${head.join('\n')}\n</header>\n<main>\n${[...(document.before ?? []).map(paragraph), ...tables, ...(document.after ?? []).map(paragraph)].join('\n')}\n</main>\n`;
  return htmlDocument(document.title, body);
}
