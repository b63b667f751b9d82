import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import type { Chart } from './charts.js';
import { renderPng, renderSvg } from './render.js';

/**
 * The offline HTML report: one self-contained page per question, and an index of every page.
 *
 *   <out>/<slug>.html                 the page (inline stylesheet; readable without JavaScript)
 *   <out>/charts/<id>.vl.json|svg|png each chart's Vega-Lite spec and its static renderings
 *   <out>/assets/vega*.min.js         vega, vega-lite and vega-embed's browser bundles (no CDN)
 *   <out>/pages.json, index.html      the manifest of pages, kept across runs, and its index
 *
 * A chart shows as an <img> of its SVG; when JavaScript runs, vega-embed replaces it with the
 * interactive view, from the spec embedded in the page (browsers refuse fetch() of file:// URLs)
 * as JSON in a <script type="application/json">, with <, > and & written as \u003c… so no string
 * of the data can end the script. Every other string is HTML-escaped.
 */
interface RunOf { readonly scenario: string; readonly file: string; readonly ruleset: string; readonly engineVersion: string }
/** A run behind the page: Monte Carlo (its seed and trials) or exact (nothing sampled: its paths and error bound instead). */
export type Provenance = RunOf & (
  | { readonly seed: number; readonly trials: number; readonly exact?: undefined }
  | { readonly exact: { readonly paths: number; readonly errorBound: number }; readonly seed?: undefined; readonly trials?: undefined }
);
export interface PageTable { readonly columns: readonly string[]; readonly rows: readonly (readonly (string | number)[])[] }
/** A section: its heading, then any of text (blank lines separate paragraphs), a chart and a table; undefined parts are left out. */
export interface PageSection { readonly heading: string; readonly text?: string | undefined; readonly chart?: Chart | undefined; readonly table?: PageTable | undefined }
export interface ReportPage {
  readonly slug: string;
  readonly title: string;
  readonly question: string;
  readonly sections: readonly PageSection[];
  readonly provenance: readonly Provenance[];
  /** Methods notes: the rulings and options in force, how intervals were computed… one entry a paragraph. */
  readonly methods: readonly string[];
}

export const DEFAULT_REPORT_DIRECTORY = 'reports';
const MANIFEST = 'pages.json';

/** The browser bundles copied into <out>/assets/, in the order the page loads them. */
const BUNDLES: readonly { readonly packageName: string; readonly file: string }[] = [
  { packageName: 'vega', file: 'vega.min.js' },
  { packageName: 'vega-lite', file: 'vega-lite.min.js' },
  { packageName: 'vega-embed', file: 'vega-embed.min.js' },
];

/** Text as HTML (element content or a quoted attribute value). */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that is safe inside <script>: no `<`, `>` or `&` (nor JavaScript's line separators) appear literally. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Any text as a file-name-safe slug: "Knights vs Ogre!" → "knights-vs-ogre". */
export function slugify(text: string): string {
  const slug = text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9._]+/g, '-').replace(/^[-._]+|[-._]+$/g, '').slice(0, 80).replace(/[-._]+$/, '');
  if (slug === '') return 'report';
  return slug === 'index' ? 'index-page' : slug;
}

function checkName(what: string, name: string): void {
  if (!SAFE_NAME.test(name)) throw new RangeError(`${what} ${JSON.stringify(name)} must be a file name: letters, digits, ".", "_" and "-", starting with a letter or digit (slugify() makes one)`);
}

/** 1234567 → "1,234,567", whatever the machine's locale. */
function groupThousands(value: number): string {
  return Number.isInteger(value) ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(value);
}

/** The spec as written for the browser and beside the chart: the "$schema" URL is left out (vega-embed is told the mode). */
function offlineSpec(spec: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = spec;
  return rest;
}

/** Write beside the target, then rename over it: a reader never sees half a file. */
async function writeAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, content);
  await rename(temporary, file);
}

/** The directory of an installed package (its package.json may not be exported, so walk up from its entry point). */
function packageDirectory(name: string): string {
  let directory = path.dirname(createRequire(import.meta.url).resolve(name));
  while (path.basename(directory) !== name || path.basename(path.dirname(directory)) !== 'node_modules') {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`cannot find the ${name} package directory`);
    directory = parent;
  }
  return directory;
}

/** Copy the browser bundles into <out>/assets/ (without their source-map comment: the maps are not copied) unless already there. */
async function copyAssets(out: string): Promise<void> {
  const assets = path.join(out, 'assets');
  await mkdir(assets, { recursive: true });
  for (const { packageName, file } of BUNDLES) {
    const source = await readFile(path.join(packageDirectory(packageName), 'build', file), 'utf8');
    const bundle = source.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
    const target = path.join(assets, file);
    if ((await readFile(target, 'utf8').catch(() => undefined)) !== bundle) await writeAtomic(target, bundle);
  }
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
figure.chart { margin: 1rem 0; }
figure.chart img { max-width: 100%; height: auto; display: block; }
figure.chart img[hidden] { display: none; }
figure.chart figcaption, .meta { font-size: 0.85rem; color: var(--muted); }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.75rem 0; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f3f5f7; }
td.num { text-align: right; white-space: nowrap; }
ul.pages { list-style: none; padding: 0; }
ul.pages li { margin: 0 0 1.2rem; }
ul.pages p { margin: 0.15rem 0; }
`;

function htmlDocument(title: string, body: string, scripts = ''): string {
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

const NUMERIC = /^[-+−±]?[\d.,]+\s?(%|pts|×)?$/;

function tableHtml(table: PageTable): string {
  const cell = (value: string | number, tag: 'td' | 'th'): string => {
    const text = typeof value === 'number' ? groupThousands(value) : value;
    const numeric = tag === 'td' && (typeof value === 'number' || NUMERIC.test(value));
    return `<${tag}${numeric ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  };
  const head = `<tr>${table.columns.map((column) => cell(column, 'th')).join('')}</tr>`;
  const rows = table.rows.map((row) => `<tr>${row.map((value) => cell(value, 'td')).join('')}</tr>`);
  return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>`;
}

function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`)
    .join('\n');
}

/** The width and height attributes of an SVG's root element, to reserve the image's space. */
function svgSize(svg: string): string {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = /\swidth="([\d.]+)"/.exec(root)?.[1];
  const height = /\sheight="([\d.]+)"/.exec(root)?.[1];
  return width === undefined || height === undefined ? '' : ` width="${Math.round(Number(width))}" height="${Math.round(Number(height))}"`;
}

function chartHtml(chart: Chart, svg: string): string {
  const file = `charts/${chart.id}`;
  return `<figure class="chart" id="chart-${chart.id}" data-chart="${chart.id}" data-render="static">
<div class="vega-view"></div>
<img class="static-chart" src="${file}.svg" alt="${escapeHtml(chart.title)}"${svgSize(svg)}>
<figcaption>${escapeHtml(chart.title)} · <a href="${file}.vl.json">Vega-Lite spec</a> · <a href="${file}.svg">SVG</a> · <a href="${file}.png">PNG</a></figcaption>
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

/** The page's HTML, given each chart's SVG (by chart id). */
export function pageHtml(page: ReportPage, svgs: ReadonlyMap<string, string>): string {
  const sections = page.sections.map((section) => {
    const parts = [`<h2>${escapeHtml(section.heading)}</h2>`];
    if (section.text !== undefined) parts.push(paragraphs(section.text));
    if (section.chart !== undefined) parts.push(chartHtml(section.chart, svgs.get(section.chart.id) ?? ''));
    if (section.table !== undefined) parts.push(tableHtml(section.table));
    return `<section>\n${parts.join('\n')}\n</section>`;
  });
  const provenance: PageTable = {
    columns: ['scenario', 'file', 'ruleset', 'engine version', 'seed', 'trials'],
    // An exact run has no seed and ran no trials: a 0 there would read as an empty run.
    rows: page.provenance.map((entry) => [entry.scenario, entry.file, entry.ruleset, entry.engineVersion, ...(entry.exact === undefined ? [String(entry.seed), entry.trials] : ['—', `exact: ${groupThousands(entry.exact.paths)} paths`])]),
  };
  const methods = page.methods.length === 0 ? '' : `<h3>Methods</h3>\n<ul>\n${page.methods.map((note) => `<li>${escapeHtml(note)}</li>`).join('\n')}\n</ul>`;
  const body = `<nav><a href="index.html">All pages</a></nav>
<header>
<h1>${escapeHtml(page.title)}</h1>
<p class="question">${escapeHtml(page.question)}</p>
</header>
<main>
${sections.join('\n')}
<section id="how-these-numbers-were-made">
<h2>How these numbers were made</h2>
${page.provenance.length === 0 ? '<p>No simulation runs are recorded for this page.</p>' : tableHtml(provenance)}
${methods}
</section>
</main>
`;
  return htmlDocument(page.title, body, page.sections.some((section) => section.chart !== undefined) ? EMBED_SCRIPT : '');
}

// The manifest: every page written into <out>, so the index lists pages written by separate runs.

const entrySchema = z.object({
  slug: z.string().regex(SAFE_NAME),
  title: z.string(),
  question: z.string(),
  written: z.string(),
  engineVersions: z.array(z.string()),
  charts: z.array(z.string()),
});
const manifestSchema = z.object({ pages: z.array(entrySchema) });
export type ManifestEntry = z.infer<typeof entrySchema>;

const exists = async (file: string): Promise<boolean> => (await stat(file).catch(() => undefined)) !== undefined;

/** The pages of <out>/pages.json whose HTML file still exists; an unreadable manifest counts as empty. */
export async function readManifest(out: string): Promise<ManifestEntry[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path.join(out, MANIFEST), 'utf8'));
  } catch {
    return [];
  }
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success) return [];
  const present = await Promise.all(parsed.data.pages.map((entry) => exists(path.join(out, `${entry.slug}.html`))));
  return parsed.data.pages.filter((_, i) => present[i] === true);
}

const LOCK_STALE_MS = 30_000;

/** Runs `work` holding <out>/.pages.lock, so notebooks writing pages at once do not lose each other's entries. */
async function withManifestLock<T>(out: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(out, '.pages.lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      const held = await stat(lock).catch(() => undefined);
      // A lock older than any manifest update is left by a process that died: take it over.
      if (held !== undefined && Date.now() - held.mtimeMs > LOCK_STALE_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** "2025-11-22T02:07:31.123Z" → "2025-11-22 02:07 UTC". */
const readableTime = (iso: string): string => (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso);

function indexHtml(pages: readonly ManifestEntry[]): string {
  const versions = [...new Set(pages.flatMap((entry) => entry.engineVersions))].sort();
  const latest = pages.map((entry) => entry.written).sort().at(-1);
  const made = latest === undefined ? '' : `<p class="meta">Made <time datetime="${escapeHtml(latest)}">${escapeHtml(readableTime(latest))}</time>${versions.length === 0 ? '' : ` with engine versions ${escapeHtml(versions.join(', '))}`}.</p>`;
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

/** Writes <out>/index.html listing every page of <out>/pages.json (title, question, when, engine versions). */
export async function writeIndex(outDirectory: string = DEFAULT_REPORT_DIRECTORY): Promise<string> {
  await mkdir(outDirectory, { recursive: true });
  const file = path.join(outDirectory, 'index.html');
  await writeAtomic(file, indexHtml(await readManifest(outDirectory)));
  return file;
}

function chartOwner(pages: readonly ManifestEntry[], slug: string, id: string): string | undefined {
  return pages.find((entry) => entry.slug !== slug && entry.charts.includes(id))?.slug;
}

/**
 * Writes <out>/<slug>.html with its charts (spec, SVG, PNG in <out>/charts/), the browser bundles
 * (<out>/assets/, once), and updates <out>/pages.json and <out>/index.html. Returns the page's path.
 * Chart ids name files, so they must be unique across the whole report: an id another page uses is refused.
 */
export async function writePage(page: ReportPage, outDirectory: string = DEFAULT_REPORT_DIRECTORY): Promise<string> {
  checkName('page slug', page.slug);
  if (page.slug === 'index') throw new RangeError('page slug "index" is taken by the index page');
  const charts = page.sections.flatMap((section) => (section.chart === undefined ? [] : [section.chart]));
  const ids = new Set<string>();
  for (const chart of charts) {
    checkName('chart id', chart.id);
    if (ids.has(chart.id)) throw new RangeError(`page ${page.slug}: chart id ${JSON.stringify(chart.id)} is used twice`);
    ids.add(chart.id);
  }
  const clash = (pages: readonly ManifestEntry[]): void => {
    for (const id of ids) {
      const owner = chartOwner(pages, page.slug, id);
      if (owner !== undefined) throw new RangeError(`page ${page.slug}: chart id ${JSON.stringify(id)} is already used by page ${owner} of ${outDirectory}; chart ids must be unique across a report`);
    }
  };
  clash(await readManifest(outDirectory));

  const chartsDirectory = path.join(outDirectory, 'charts');
  await mkdir(chartsDirectory, { recursive: true });
  if (charts.length > 0) await copyAssets(outDirectory);
  const svgs = new Map<string, string>();
  for (const chart of charts) {
    const svg = await renderSvg(chart);
    svgs.set(chart.id, svg);
    const base = path.join(chartsDirectory, chart.id);
    await writeAtomic(`${base}.vl.json`, `${JSON.stringify(offlineSpec(chart.spec), null, 2)}\n`);
    await writeAtomic(`${base}.svg`, svg);
    await writeAtomic(`${base}.png`, await renderPng(svg));
  }
  const file = path.join(outDirectory, `${page.slug}.html`);
  await writeAtomic(file, pageHtml(page, svgs));

  const entry: ManifestEntry = {
    slug: page.slug,
    title: page.title,
    question: page.question,
    written: new Date().toISOString(),
    engineVersions: [...new Set(page.provenance.map((run) => run.engineVersion))].sort(),
    charts: [...ids],
  };
  await withManifestLock(outDirectory, async () => {
    const pages = (await readManifest(outDirectory)).filter((other) => other.slug !== page.slug);
    clash(pages);
    pages.push(entry);
    pages.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    await writeAtomic(path.join(outDirectory, MANIFEST), `${JSON.stringify({ pages }, null, 2)}\n`);
    await writeIndex(outDirectory);
  });
  return file;
}
