import type { Chart } from './charts.js';
import { countText } from './format.js';
import {
  cellText,
  type ManifestEntry,
  type PageCell,
  type PageTable,
  printBlocks,
  type Provenance,
  type ReportPage,
} from './page-model.js';

/**
 * The HTML of the report: a page (sections, provenance, methods), the index, their shared
 * stylesheet and the script that makes charts interactive. Every string from data is escaped here.
 */

/** Text as HTML (element content or a quoted attribute value). */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside <script>: no `<`, `>` or `&` (nor JavaScript's line separators) appear literally. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The spec as written for the browser and beside the chart: the "$schema" URL is left out (vega-embed is told the mode). */
export function offlineSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = spec;
  return rest;
}

const STYLE = `
:root { color-scheme: light; --ink: #1d232b; --muted: #5b6670; --rule: #d7dce1; --accent: #1f5f99; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 64rem; padding: 1.5rem 1.25rem 3rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.8rem; line-height: 1.2; margin: 0.5rem 0; }
h2 { font-size: 1.3rem; margin: 2.2rem 0 0.5rem; border-bottom: 1px solid var(--rule); padding-bottom: 0.2rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.4rem; }
a { color: var(--accent); }
nav { font-size: 0.9rem; }
.question { font-size: 1.15rem; color: var(--muted); margin-top: 0; }
.answer { font-size: 1.1rem; font-weight: 600; }
.how-to-read { font-size: 0.9rem; color: var(--muted); max-width: 48rem; }
figure.chart { margin: 1rem 0; }
/* A chart shrinks with the page only down to MIN_CHART_SCALE of its size (--chart-min-width); narrower, it scrolls sideways in its box: text stays legible. */
figure.chart .chart-scroll { overflow-x: auto; max-width: 100%; }
figure.chart img { max-width: 100%; min-width: var(--chart-min-width, 0); height: auto; display: block; }
figure.chart img[hidden] { display: none; }
figure.chart figcaption, .meta { font-size: 0.85rem; color: var(--muted); }
/* A table wider than the page scrolls sideways; shadows at its edges show there is more (they move with the scroll). */
.table-wrap {
  overflow-x: auto; max-width: 100%;
  background:
    linear-gradient(to right, #fff 30%, rgba(255, 255, 255, 0)) left center / 2rem 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255, 255, 255, 0)) right center / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.2), transparent) left center / 0.8rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.2), transparent) right center / 0.8rem 100% no-repeat scroll;
}
table { border-collapse: collapse; margin: 0.75rem 0; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; overflow-wrap: break-word; }
th { background: #f3f5f7; }
td.num { text-align: right; white-space: nowrap; }
.vega-view .vega-embed { max-width: 100%; }
.vega-view svg { max-width: 100%; min-width: var(--chart-min-width, 0); height: auto; }
/* Narrow screens: each table row becomes a card of "column: value" lines, so no column is cut off. */
@media (max-width: 40rem) {
  body { padding: 1rem 0.75rem 2rem; }
  table, tbody, tr, td { display: block; width: 100%; }
  thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  tr { border-bottom: 1px solid var(--rule); padding: 0.35rem 0; }
  td, td.num { border: 0; padding: 0.1rem 0; display: flex; justify-content: space-between; gap: 1rem; text-align: right; white-space: normal; overflow-wrap: anywhere; }
  /* A label breaks between words only ("Outcome", never "Outco/me"); a long value (a file path) may break anywhere. */
  td::before { content: attr(data-label); color: var(--muted); text-align: left; flex: 0 1 auto; overflow-wrap: normal; word-break: normal; hyphens: none; }
  td:first-child { font-weight: 600; }
  td:empty { display: none; }
}
/* A table wider than PRINT_BLOCK_COLUMNS columns prints as blocks of columns (each with the row labels and headers): on screen, the whole table. */
.print-blocks { display: none; }
/* Print: landscape on the printer's paper (A4 or Letter), the page's full width; charts shrink to fit; wide tables in blocks of columns, headers repeated on every page. */
@media print {
  @page { size: landscape; margin: 10mm; }
  body { max-width: none; padding: 0; font-size: 10pt; }
  nav, figure.chart .chart-files { display: none; }
  h1 { font-size: 16pt; }
  h2 { font-size: 13pt; margin-top: 1.2rem; }
  h2, h3 { break-after: avoid; }
  figure.chart, tr, .answer, .how-to-read, .print-block { break-inside: avoid; }
  figure.chart .chart-scroll { overflow: visible; }
  /* A chart fits the paper's height too (a 24-unit heatmap is taller than a landscape page), its proportions kept. */
  figure.chart img, .vega-view svg { max-width: 100%; min-width: 0; max-height: 150mm; width: auto; height: auto; }
  .table-wrap { overflow: visible; background: none; }
  .table-wrap.has-print-blocks { display: none; }
  .print-blocks { display: block; }
  .print-block + .print-block { margin-top: 0.6rem; }
  .print-block-caption { font-size: 8pt; color: var(--muted); margin: 0.4rem 0 0; break-after: avoid; }
  table { width: 100%; font-size: 8pt; line-height: 1.25; }
  th, td { padding: 0.1rem 0.25rem; }
  /* A header breaks between words, and inside a word only where one alone is wider than its column; numbers stay whole. */
  th { overflow-wrap: break-word; hyphens: auto; }
  /* A block's row labels stay on one line each, so a 24-row block fits one page. */
  .print-block td:first-child { white-space: nowrap; }
  thead { display: table-header-group; }
}
ul.pages { list-style: none; padding: 0; }
ul.pages li { margin: 0 0 1.2rem; }
ul.pages p { margin: 0.15rem 0; }
`;

export function htmlDocument(title: string, body: string, scripts = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="crucible">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
${scripts}</body>
</html>
`;
}

/** A number, a percent, a rulebook "62% ±1" or an estimate with its interval: right-aligned and kept on one line. */
const NUMERIC = /^(([<>]\s?)?[-+−±×]?[\d.,]+\s?(%|pts|×|points)?( ±[\d.]+| \[[-+−\d., ]+\])?|\[[-+−\d., ]+\])$/;

/** Longer tables start folded (a 56-unit round robin's pairings are 3,136 rows), as in the workbench. */
const ROWS_SHOWN_OPEN = 60;

export function tableHtml(table: PageTable): string {
  // data-label: the column's name, which a narrow screen shows beside each value (see STYLE).
  const cell = (shown: PageCell, tag: 'td' | 'th', column = ''): string => {
    const value = cellText(shown);
    const text = typeof value === 'number' ? countText(value) : value;
    const numeric = tag === 'td' && (typeof value === 'number' || NUMERIC.test(value));
    const label = tag === 'td' && column !== '' ? ` data-label="${escapeHtml(column)}"` : '';
    return `<${tag}${numeric ? ' class="num"' : ''}${label}>${escapeHtml(text)}</${tag}>`;
  };
  const grid = (indices: readonly number[]): string => {
    const head = `<tr>${indices.map((i) => cell(table.columns[i] ?? '', 'th')).join('')}</tr>`;
    const rows = table.rows.map((row) => `<tr>${indices.map((i) => cell(row[i] ?? '', 'td', table.columns[i])).join('')}</tr>`);
    return `<table>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
  };
  const all = table.columns.map((_, i) => i);
  const blocks = printBlocks(table.columns.length);
  if (blocks.length === 0) return `<div class="table-wrap">${grid(all)}</div>`;
  // Printed, the same table in blocks of columns, each with the row labels: none is cut at the paper's edge.
  const printed = blocks.map(
    (block, b) =>
      `<div class="print-block"><p class="print-block-caption">Columns ${block[0] ?? 0}–${block.at(-1) ?? 0} of ${table.columns.length - 1} (part ${b + 1} of ${blocks.length})</p>\n${grid([0, ...block])}</div>`,
  );
  return `<div class="table-wrap has-print-blocks">${grid(all)}</div>\n<div class="print-blocks">\n${printed.join('\n')}\n</div>`;
}

function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join('\n');
}

/** The width and height of an SVG's root element, to reserve the image's space. */
function svgSize(svg: string): { width: number; height: number } | undefined {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = /\swidth="([\d.]+)"/.exec(root)?.[1];
  const height = /\sheight="([\d.]+)"/.exec(root)?.[1];
  return width === undefined || height === undefined ? undefined : { width: Math.round(Number(width)), height: Math.round(Number(height)) };
}

/** How far a chart may shrink on a narrow screen (the report's and the workbench's): its 11 px labels stay at 10 px. Narrower than that, it scrolls. */
export const MIN_CHART_SCALE = 0.91;

function chartHtml(chart: Chart, svg: string): string {
  const file = `charts/${chart.id}`;
  const size = svgSize(svg);
  const attributes = size === undefined ? '' : ` width="${size.width}" height="${size.height}"`;
  const minimum = size === undefined ? '' : ` style="--chart-min-width: ${Math.round(size.width * MIN_CHART_SCALE)}px"`;
  return `<figure class="chart" id="chart-${chart.id}" data-chart="${chart.id}" data-render="static"${minimum}>
<div class="chart-scroll">
<div class="vega-view"></div>
<img class="static-chart" src="${file}.svg" alt="${escapeHtml(chart.title)}"${attributes}>
</div>
<figcaption>${escapeHtml(chart.title)}<span class="chart-files"> · <a href="${file}.vl.json">Vega-Lite spec</a> · <a href="${file}.svg">SVG</a> · <a href="${file}.png">PNG</a></span></figcaption>
<script type="application/json" class="vega-lite-spec">${scriptJson(offlineSpec(chart.spec))}</script>
</figure>`;
}

/**
 * Replaces each static chart with vega-embed's interactive view; the <img> stays if anything
 * fails. Each figure's data-render ends "interactive", or "failed" (with a console error).
 */
const EMBED_SCRIPT = `<script src="assets/vega.min.js"></script>
<script src="assets/vega-lite.min.js"></script>
<script src="assets/vega-embed.min.js"></script>
<script>
(function () {
  if (typeof vegaEmbed !== 'function') return;
  document.querySelectorAll('figure.chart').forEach(function (figure) {
    var source = figure.querySelector('script.vega-lite-spec');
    var view = figure.querySelector('.vega-view');
    var image = figure.querySelector('img.static-chart');
    try {
      var spec = JSON.parse(source.textContent);
      vegaEmbed(view, spec, { mode: 'vega-lite', renderer: 'svg', actions: false }).then(function () {
        if (image) image.hidden = true;
        figure.setAttribute('data-render', 'interactive');
      }, function (error) {
        figure.setAttribute('data-render', 'failed');
        console.error('chart ' + figure.getAttribute('data-chart') + ': ' + error);
      });
    } catch (error) {
      figure.setAttribute('data-render', 'failed');
      console.error('chart ' + figure.getAttribute('data-chart') + ': ' + error);
    }
  });
})();
</script>
`;

const PROVENANCE_COLUMNS = ['scenario', 'variant', 'file', 'ruleset', 'engine version', 'seed', 'trials'] as const;

/**
 * The runs behind a page, each different run once: identical rows are merged ("×18" in a runs
 * column), and a field every run shares is said once in a line above the table, which keeps only
 * the fields that vary. The variant column shows only when some run names one.
 */
export function provenanceHtml(entries: readonly Provenance[]): string {
  if (entries.length === 0) return '<p>No simulation runs are recorded for this page.</p>';
  const variants = entries.some((entry) => entry.variant !== undefined);
  const columns = PROVENANCE_COLUMNS.filter((column) => variants || column !== 'variant');
  const merged = new Map<string, { cells: string[]; runs: number }>();
  for (const entry of entries) {
    // An exact run has no seed and ran no trials: a 0 there would read as an empty run.
    const sampling =
      entry.exact === undefined ? [String(entry.seed), countText(entry.trials)] : ['—', `exact: ${countText(entry.exact.paths)} paths`];
    const cells = [entry.scenario, ...(variants ? [entry.variant ?? ''] : []), entry.file, entry.ruleset, entry.engineVersion, ...sampling];
    const key = JSON.stringify(cells);
    const seen = merged.get(key);
    if (seen === undefined) merged.set(key, { cells, runs: entry.runs ?? 1 });
    else seen.runs += entry.runs ?? 1;
  }
  const rows = [...merged.values()];
  const counted = rows.some((row) => row.runs > 1);
  const runsColumn = (row: { runs: number }): string[] => (counted ? [`×${countText(row.runs)}`] : []);
  if (rows.length === 1)
    return tableHtml({ columns: [...columns, ...(counted ? ['runs'] : [])], rows: rows.map((row) => [...row.cells, ...runsColumn(row)]) });
  const shared = columns.map((_, i) => new Set(rows.map((row) => row.cells[i])).size === 1);
  const common = columns.flatMap((column, i) => (shared[i] === true ? [`${column} ${rows[0]?.cells[i] ?? ''}`] : []));
  const varying = columns.flatMap((column, i) => (shared[i] === true ? [] : [{ column, i }]));
  const total = rows.reduce((sum, row) => sum + row.runs, 0);
  const line = `<p>${countText(total)} runs${common.length === 0 ? '' : `, all with ${escapeHtml(common.join(', '))}`}; they differ in ${escapeHtml(varying.map(({ column }) => column).join(', '))}:</p>`;
  return `${line}\n${tableHtml({ columns: [...varying.map(({ column }) => column), ...(counted ? ['runs'] : [])], rows: rows.map((row) => [...varying.map(({ i }) => row.cells[i] ?? ''), ...runsColumn(row)]) })}`;
}

/** The page's HTML, given each chart's SVG (by chart id). */
export function pageHtml(page: ReportPage, svgs: ReadonlyMap<string, string>): string {
  const sections = page.sections.map((section) => {
    const parts = [`<h2>${escapeHtml(section.heading)}</h2>`];
    if (section.text !== undefined) parts.push(paragraphs(section.text));
    if (section.chart !== undefined) parts.push(chartHtml(section.chart, svgs.get(section.chart.id) ?? ''));
    if (section.table !== undefined)
      parts.push(
        section.table.rows.length > ROWS_SHOWN_OPEN
          ? `<details class="long-table"><summary>The table: ${section.table.rows.length.toLocaleString('en-US')} rows</summary>\n${tableHtml(section.table)}\n</details>`
          : tableHtml(section.table),
      );
    return `<section>\n${parts.join('\n')}\n</section>`;
  });
  const methods =
    page.methods.length === 0
      ? ''
      : `<h3>Methods</h3>\n<ul>\n${page.methods.map((note) => `<li>${escapeHtml(note)}</li>`).join('\n')}\n</ul>`;
  const body = `<nav><a href="index.html">All pages</a></nav>
<header>
<h1>${escapeHtml(page.title)}</h1>
<p class="question">${escapeHtml(page.question)}</p>
${page.answer === undefined ? '' : `<p class="answer">${escapeHtml(page.answer)}</p>\n`}${page.howToRead === undefined ? '' : `<p class="how-to-read"><strong>How to read this:</strong> ${escapeHtml(page.howToRead)}</p>\n`}</header>
<main>
${sections.join('\n')}
<section id="how-these-numbers-were-made">
<h2>How these numbers were made</h2>
${provenanceHtml(page.provenance)}
${methods}
</section>
</main>
`;
  return htmlDocument(page.title, body, page.sections.some((section) => section.chart !== undefined) ? EMBED_SCRIPT : '');
}

// The manifest: every page written into <out>, so the index lists pages written by separate runs.
/** "2025-11-22T02:07:31.123Z" → "2025-11-22 02:07 UTC". */
const readableTime = (iso: string): string =>
  /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;

export function indexHtml(pages: readonly ManifestEntry[]): string {
  const versions = [...new Set(pages.flatMap((entry) => entry.engineVersions))].sort();
  const latest = pages
    .map((entry) => entry.written)
    .sort()
    .at(-1);
  const made =
    latest === undefined
      ? ''
      : `<p class="meta">Made <time datetime="${escapeHtml(latest)}">${escapeHtml(readableTime(latest))}</time>${versions.length === 0 ? '' : ` with engine versions ${escapeHtml(versions.join(', '))}`}.</p>`;
  const items = pages.map(
    (entry) => `<li>
<a href="${entry.slug}.html">${escapeHtml(entry.title)}</a>
<p>${escapeHtml(entry.question)}</p>
<p class="meta">Written <time datetime="${escapeHtml(entry.written)}">${escapeHtml(readableTime(entry.written))}</time>${entry.engineVersions.length === 0 ? '' : ` · ${escapeHtml(entry.engineVersions.join(', '))}`}</p>
</li>`,
  );
  const body = `<header>
<h1>crucible report</h1>
<p class="question">Monte Carlo estimates with 95% intervals, or exact probabilities: one page per question.</p>
${made}
</header>
<main>
${pages.length === 0 ? '<p>No pages yet.</p>' : `<ul class="pages">\n${items.join('\n')}\n</ul>`}
</main>
`;
  return htmlDocument('crucible report', body);
}
