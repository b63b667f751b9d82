import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summarizeHistogram } from '../../statistics/summary.js';
import { distributionChart } from '../../reports/charts.js';
import { type ReportPage, readManifest, writePage } from '../../reports/page.js';
import { type CliRun, runCli } from '../helpers/capture.js';

/** The offline HTML report: pages, charts, assets, the index, and `crucible report`. */

const EVIL = '<script>alert(1)</script>';
const SCENARIO = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
/** One attack: `crucible run`'s default (auto) method enumerates it exactly. */
const EXACT_SCENARIO = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const STACK_LINE = /^ {4}at /m;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-report-html-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function samplePage(slug: string, chartId: string): ReportPage {
  const summary = summarizeHistogram('winner', 'category', `which side won, e.g. ${EVIL}`, [300, 500, 200], ['none', EVIL, 'Ogre & co']);
  return {
    slug,
    title: `Who wins? ${EVIL}`,
    question: `Does ${EVIL} beat the Ogre?`,
    sections: [
      {
        heading: `Winner ${EVIL}`,
        text: `First paragraph ${EVIL}.\n\nSecond paragraph.`,
        chart: distributionChart(summary, { id: chartId, title: `winner ${EVIL}` }),
      },
      {
        heading: 'Numbers',
        table: {
          columns: ['value', 'trials', 'probability'],
          rows: [
            [EVIL, 500, '50.00%'],
            ['none', 300, '30.00%'],
          ],
        },
      },
    ],
    provenance: [
      {
        scenario: `Knights vs ${EVIL}`,
        file: `data/${EVIL}.yaml`,
        ruleset: 'heroic',
        engineVersion: 'heroic-1.1.0',
        seed: 7,
        trials: 1000,
      },
    ],
    methods: [`allocation: ${EVIL}`, 'Wilson intervals.'],
  };
}

/** The page without the column names each cell carries for narrow screens (data-label), to match cells as they read. */
const plain = (html: string): string => html.replace(/ data-label="[^"]*"/g, '');

const VOID = new Set(['meta', 'img', 'br', 'hr', 'link', 'input', 'source', 'col', 'wbr']);

/** A tiny HTML checker: every element closes in order; script and style contents are skipped. Returns the problems. */
function structureProblems(html: string): string[] {
  const problems: string[] = [];
  const stack: string[] = [];
  const tag = /<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|<\/?([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*(\/?)>/g;
  let last = 0;
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    const between = html.slice(last, match.index);
    if (/[<>]/.test(between)) problems.push(`stray < or > in text: ${JSON.stringify(between.slice(0, 60))}`);
    last = tag.lastIndex;
    const name = match[1]?.toLowerCase();
    if (name === undefined) continue;
    if (match[0].startsWith('</')) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else if (name === 'script' || name === 'style') {
      const end = html.indexOf(`</${name}>`, last);
      if (end < 0) problems.push(`<${name}> never closes`);
      else last = tag.lastIndex = end + name.length + 3;
    } else if (!VOID.has(name) && match[3] !== '/') stack.push(name);
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}

/** Every file under `directory`, recursively. */
async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

const exists = async (file: string): Promise<boolean> => (await stat(file).catch(() => undefined)) !== undefined;

/** Local targets of href/src attributes that do not exist beside the page. */
async function brokenLinks(page: string): Promise<string[]> {
  const html = await readFile(page, 'utf8');
  const targets = [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1] ?? '');
  const broken: string[] = [];
  for (const target of targets) if (target.startsWith('#') || !(await exists(path.join(path.dirname(page), target)))) broken.push(target);
  return broken;
}

describe('writePage', () => {
  let out: string;
  let page: string;
  let raw: string;
  let html: string;
  beforeAll(async () => {
    out = path.join(root, 'report');
    page = await writePage(samplePage('who-wins', 'who-wins-winner'), out);
    raw = await readFile(page, 'utf8');
    html = plain(raw);
  });

  it('writes a well-formed page with the title, question, sections, provenance and methods', () => {
    expect(page).toBe(path.join(out, 'who-wins.html'));
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(structureProblems(html)).toEqual([]);
    expect(html).toMatch(/<h1>Who wins\? &#60;script&#62;/);
    expect(html).toContain('<h2>How these numbers were made</h2>');
    for (const column of ['scenario', 'file', 'ruleset', 'engine version', 'seed', 'trials']) expect(html).toContain(`<th>${column}</th>`);
    expect(html).toContain('<td>heroic-1.1.0</td>');
    expect(html).toContain('<li>Wilson intervals.</li>');
    expect(html.match(/<p>First paragraph|<p>Second paragraph/g)).toHaveLength(2);
    expect(html).toContain('<td class="num">500</td>');
    // Each cell names its column, which a narrow screen shows beside it (the table reflows as cards).
    expect(raw).toContain('<td class="num" data-label="trials">500</td>');
    expect(raw).toContain('@media (max-width: 40rem)');
  });

  it('shows the chart as its SVG, embeds its spec safely for vega-embed and links the spec, SVG and PNG', async () => {
    expect(html).toContain('<img class="static-chart" src="charts/who-wins-winner.svg"');
    for (const extension of ['vl.json', 'svg', 'png']) expect(html).toContain(`href="charts/who-wins-winner.${extension}"`);
    const inline = /<script type="application\/json" class="vega-lite-spec">([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(inline).toContain('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
    const file = JSON.parse(await readFile(path.join(out, 'charts', 'who-wins-winner.vl.json'), 'utf8')) as unknown;
    expect(JSON.parse(inline)).toEqual(file);
    const png = await readFile(path.join(out, 'charts', 'who-wins-winner.png'));
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(await readFile(path.join(out, 'charts', 'who-wins-winner.svg'), 'utf8')).toMatch(/^<svg/);
  });

  it('resolves every link to a file of the report, with the vega bundles copied into assets/', async () => {
    expect(await brokenLinks(page)).toEqual([]);
    expect(await brokenLinks(path.join(out, 'index.html'))).toEqual([]);
    for (const bundle of ['vega.min.js', 'vega-lite.min.js', 'vega-embed.min.js']) {
      const text = await readFile(path.join(out, 'assets', bundle), 'utf8');
      expect(text.length).toBeGreaterThan(10_000);
      expect(text).not.toContain('sourceMappingURL');
      expect(html.indexOf(`<script src="assets/${bundle}"></script>`)).toBeGreaterThan(0);
    }
    // Scripts: the three bundles, the one that embeds the charts, and the chart's JSON spec.
    expect(html.match(/<script\b/g)).toHaveLength(5);
  });

  it('ships bundles that load as browser globals and draw the embedded spec (no browser needed)', async () => {
    const globals = {
      console,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      queueMicrotask,
      structuredClone,
      TextEncoder,
      TextDecoder,
      URL,
    };
    const context = vm.createContext({ ...globals }) as Record<string, unknown>;
    context.self = context;
    for (const bundle of ['vega.min.js', 'vega-lite.min.js', 'vega-embed.min.js'])
      vm.runInContext(await readFile(path.join(out, 'assets', bundle), 'utf8'), context, { filename: bundle });
    expect(typeof context.vegaEmbed).toBe('function');
    context.spec = JSON.parse(
      /<script type="application\/json" class="vega-lite-spec">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as unknown;
    const svg = (await vm.runInContext(
      "new vega.View(vega.parse(vegaLite.compile(spec).spec), { renderer: 'none' }).toSVG()",
      context,
    )) as string;
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('names no http(s) URL anywhere but the SVG namespaces (the vendored bundles aside)', async () => {
    for (const file of await filesUnder(out)) {
      if (file.includes(`${path.sep}assets${path.sep}`) || file.endsWith('.png')) continue;
      let text = await readFile(file, 'utf8');
      if (file.endsWith('.svg')) text = text.replace(/\sxmlns(:\w+)?="http:\/\/www\.w3\.org\/[^"]*"/g, '');
      expect(text, file).not.toMatch(/https?:\/\//);
    }
  });

  it('escapes every string from the data: the unit named <script>alert(1)</script> is text', async () => {
    const pages = (await filesUnder(out)).filter((file) => /\.(html|svg)$/.test(file));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const file of pages) expect(await readFile(file, 'utf8'), file).not.toContain(EVIL);
    expect(raw).toContain('data-label="file">data/&#60;script&#62;');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('Ogre \\u0026 co');
    // In order: the heading, the paragraph, the table cell, the provenance and the methods.
    expect(html).toContain('<h2>Winner &#60;script&#62;');
    expect(html).toContain('<td>&#60;script&#62;alert(1)&#60;/script&#62;</td>');
    expect(html).toContain('<td>data/&#60;script&#62;');
    expect(html).toContain('<li>allocation: &#60;script&#62;');
  });

  it('lists every page in the index, across writes, updating a page rewritten', async () => {
    const second = {
      ...samplePage('second', 'second-winner'),
      title: 'The second page',
      sections: [{ heading: 'Only a table', table: { columns: ['a'], rows: [[1]] } }],
    };
    await writePage(second, out);
    await writePage(samplePage('who-wins', 'who-wins-winner'), out);
    const index = await readFile(path.join(out, 'index.html'), 'utf8');
    expect(structureProblems(index)).toEqual([]);
    expect(index.match(/<li>/g)).toHaveLength(2);
    expect(index).toContain('<a href="second.html">The second page</a>');
    expect(index).toContain('<a href="who-wins.html">Who wins? &#60;script&#62;');
    expect(index).toMatch(
      /Made <time datetime="\d{4}-\d\d-\d\dT[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time> with engine versions heroic-1\.1\.0/,
    );
    expect((await readManifest(out)).map((entry) => entry.slug)).toEqual(['second', 'who-wins']);
    // A page without charts loads no script at all.
    expect(await readFile(path.join(out, 'second.html'), 'utf8')).not.toContain('<script');
  });

  it('keeps every entry when pages are written at once (the manifest is locked)', async () => {
    const out2 = path.join(root, 'parallel');
    const pages = Array.from({ length: 6 }, (_, i) => ({
      ...samplePage(`page-${i}`, `x-${i}`),
      sections: [{ heading: 'text only', text: String(i) }],
    }));
    await Promise.all(pages.map((one) => writePage(one, out2)));
    expect((await readManifest(out2)).map((entry) => entry.slug)).toEqual(pages.map((one) => one.slug));
    expect((await readFile(path.join(out2, 'index.html'), 'utf8')).match(/<li>/g)).toHaveLength(6);
    expect(await exists(path.join(out2, '.pages.lock'))).toBe(false);
  });

  it('refuses a chart id another page of the report already uses, and unsafe names', async () => {
    await expect(writePage(samplePage('third', 'who-wins-winner'), out)).rejects.toThrow(
      /chart id "who-wins-winner" is already used by page who-wins/,
    );
    await expect(writePage(samplePage('../escape', 'x'), out)).rejects.toThrow(/page slug/);
    const fine = samplePage('fine', 'fine-winner');
    const unsafe = fine.sections.map((section) =>
      section.chart === undefined ? section : { ...section, chart: { ...section.chart, id: '../b' } },
    );
    await expect(writePage({ ...fine, sections: unsafe }, out)).rejects.toThrow(/chart id "\.\.\/b" must be a file name/);
    await expect(writePage(samplePage('index', 'y'), out)).rejects.toThrow(/index/);
  });
});

const cli = (...args: string[]): Promise<CliRun> => runCli(args);

describe('crucible report', () => {
  let saved: string;
  let savedTwo: string;
  let savedExact: string;
  beforeAll(async () => {
    const one = await cli('run', SCENARIO, '--trials', '2000', '--workers', '0', '--json', '--quiet');
    expect(one.status).toBe(0);
    saved = path.join(root, 'knights.json');
    await writeFile(saved, one.stdout);
    const two = await cli(
      'run',
      SCENARIO,
      'data/heroic/scenarios/draugr-fire-and-frost.yaml',
      '--trials',
      '1000',
      '--workers',
      '0',
      '--json',
      '--quiet',
    );
    savedTwo = path.join(root, 'two.json');
    await writeFile(savedTwo, two.stdout);
    const exact = await cli('run', EXACT_SCENARIO, '--json', '--quiet');
    expect(exact.status).toBe(0);
    savedExact = path.join(root, 'exact.json');
    await writeFile(savedExact, exact.stdout);
  });

  /** The page's HTML before its provenance section, and the provenance section itself. */
  const split = (html: string): { body: string; provenance: string } => {
    const at = html.indexOf('<section id="how-these-numbers-were-made">');
    return { body: html.slice(0, at), provenance: html.slice(at) };
  };

  it('presents an exact result as exact: no intervals, no trial counts, no seed; charts say exact probabilities', async () => {
    const document = JSON.parse(await readFile(savedExact, 'utf8')) as {
      method: string;
      exact: { paths: number };
      metrics: { name: string; kind: string }[];
    };
    expect(document.method).toBe('exact');
    const out = path.join(root, 'cli-exact');
    const result = await cli('report', savedExact, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const page = path.join(out, 'exact.html');
    const html = plain(await readFile(page, 'utf8'));
    expect(structureProblems(html)).toEqual([]);
    expect(await brokenLinks(page)).toEqual([]);
    const { body, provenance } = split(html);
    const paths = document.exact.paths;
    expect(body).toMatch(
      new RegExp(`: exact: every outcome enumerated \\(${paths} paths; each probability within ±\\d\\.\\de-\\d+\\)\\.</p>`),
    );
    expect(body).toContain('<th>value</th><th>exact probability</th>');
    expect(body).toContain('<th>metric</th><th>value</th><th>exact</th><th></th>');
    // No interval, trial count, or sampled column anywhere above the provenance.
    expect(body).not.toMatch(/95%|<th>trials<\/th>|<th>estimate<\/th>| – |seed/);
    expect(provenance).toContain(`<td>—</td><td>exact: ${paths} paths</td>`);
    expect(provenance).not.toMatch(/<td class="num">0<\/td>/);
    expect(provenance).toMatch(
      /<li>Three Sylvan Knights in formation attack an Ogre: heroic rules \(engine [^)]+\), mode attack\. Probabilities are exact \(every path of one trial enumerated, float64, within ±[\d.e-]+; \d+ paths\)/,
    );
    expect(provenance).toMatch(
      /nothing was sampled, so there are no intervals or trial counts\. Unit profiles used: sha256 [0-9a-f]{12}\.<\/li>/,
    );
    expect(provenance).not.toMatch(/Wilson|Monte Carlo/);
    const charted = document.metrics.filter((metric) => metric.kind !== 'count');
    expect(html.match(/<figure class="chart"/g)).toHaveLength(charted.length);
    for (const spec of html.matchAll(/<script type="application\/json" class="vega-lite-spec">([^<]*)<\/script>/g)) {
      expect(spec[1]).toContain('exact probabilities');
      expect(spec[1]).not.toMatch(/trials|95%|"rule"/);
    }
  });

  it('takes a mixed list: exact, Monte Carlo (with its method) and an older result with no method', async () => {
    const monteCarlo = JSON.parse(await readFile(saved, 'utf8')) as Record<string, unknown>;
    expect(monteCarlo.method).toBe('mc');
    const { method: _method, ...withoutMethod } = monteCarlo;
    const older = { ...withoutMethod, scenario: 'An older save' };
    const list = path.join(root, 'mixed.json');
    await writeFile(list, JSON.stringify([monteCarlo, JSON.parse(await readFile(savedExact, 'utf8')) as unknown, older]));
    const out = path.join(root, 'cli-mixed');
    const result = await cli('report', list, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const html = plain(await readFile(path.join(out, 'mixed.html'), 'utf8'));
    expect(structureProblems(html)).toEqual([]);
    const { body, provenance } = split(html);
    expect(body.match(/<h2>[^<]*every metric<\/h2>/g)).toHaveLength(3);
    expect(body).toMatch(/\(data\/heroic\/scenarios\/knights-vs-regenerating-ogre\.yaml\): 2,000 trials, seed \d+\.<\/p>/);
    expect(body).toMatch(/\(data\/heroic\/scenarios\/sylvan-knights-formation\.yaml\): exact: every outcome enumerated \(\d+ paths;/);
    // Sampled sections keep their trials and intervals; the exact one has neither.
    expect(body.match(/<th>value<\/th><th>trials<\/th><th>probability<\/th><th>95% interval<\/th>/g)?.length).toBeGreaterThan(0);
    expect(body).toContain('<th>value</th><th>exact probability</th>');
    // What the three runs share is said once; the table keeps what differs.
    expect(provenance).toMatch(
      /<p>3 runs, all with ruleset heroic, engine version heroic-[^;]*; they differ in scenario, file, seed, trials:<\/p>/,
    );
    expect(provenance.match(/<td class="num">\d+<\/td><td class="num">2,000<\/td>/g)).toHaveLength(2);
    expect(provenance).toMatch(/<td>—<\/td><td>exact: \d+ paths<\/td>/);
    expect(provenance).toContain(
      '<li>Monte Carlo probabilities are the share of trials with that outcome, with 95% Wilson score intervals; means have 95% t intervals.</li>',
    );
    expect(provenance).toMatch(/mode engagement, Monte Carlo \(outcomes drawn from exact tables\), seed \d+, a fixed 2,000 trials\./);
    expect(provenance).toMatch(/<li>An older save: [^<]*mode engagement, Monte Carlo, seed \d+, a fixed 2,000 trials\./);
    expect(provenance).toContain('Probabilities are exact (every path of one trial enumerated, float64, within ±');
  });

  it('reports a malformed exact result as <file>: <path>: <problem>, exit 2, no stack trace', async () => {
    const exact = JSON.parse(await readFile(savedExact, 'utf8')) as Record<string, unknown> & { metrics: Record<string, unknown>[] };
    const { exact: _exact, ...noExact } = exact;
    const { method: _method, ...noMethod } = exact;
    const monteCarlo = JSON.parse(await readFile(saved, 'utf8')) as Record<string, unknown>;
    const write = async (name: string, value: unknown): Promise<string> => {
      const file = path.join(root, name);
      await writeFile(file, JSON.stringify(value));
      return file;
    };
    const missing = await write('exact-missing.json', noExact);
    const bad = await write('exact-bad.json', [
      monteCarlo,
      { ...exact, exact: { paths: 0, errorBound: 1e-15 }, metrics: [{ ...exact.metrics[0], trials: 5 }] },
    ]);
    const unknown = await write('method-unknown.json', { ...exact, method: 'guess' });
    const noMethodFile = await write('exact-no-method.json', noMethod);
    const sampledAsExact = await write('mc-zero-trials.json', { ...monteCarlo, method: 'mc', metrics: exact.metrics });
    const result = await cli('report', missing, bad, unknown, noMethodFile, sampledAsExact, '--out', path.join(root, 'never'));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(STACK_LINE);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      `${missing}: exact: missing required field "exact" (a mapping of fields (paths, errorBound): how many paths one trial can take, and the bound on every probability's error)`,
      `${bad}: [1].exact.paths: must be an integer ≥ 1, got 0`,
      `${bad}: [1].metrics[0].trials: must be null in an exact result (nothing was sampled)`,
      `${unknown}: method: must be "exact", "mc" or "mc-dice" (or absent: Monte Carlo), got "guess"`,
      `${noMethodFile}: method: must be "exact", got nothing`,
    ]);
    // A Monte Carlo result keeps requiring trials ≥ 1 (and counts) in every metric.
    const trialsLines = lines.slice(5).filter((line) => /metrics\[\d+\]\.trials: /.test(line));
    expect(trialsLines).toHaveLength(exact.metrics.length);
    for (const line of trialsLines) expect(line).toMatch(/mc-zero-trials\.json: metrics\[\d+\]\.trials: must be /);
    for (const line of lines.slice(5))
      expect(line).toMatch(/mc-zero-trials\.json: metrics\[\d+\]\.(trials|distribution\[\d+\]\.count|atLeast\[\d+\]\.count): /);
    expect(await exists(path.join(root, 'never'))).toBe(false);
  });

  it('builds a page from a saved run --json result: a chart per category/flag metric, tables, provenance', async () => {
    const out = path.join(root, 'cli-report');
    const result = await cli('report', saved, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const page = path.join(out, 'knights.html');
    expect(result.stdout).toBe(`wrote ${page} (index: ${path.join(out, 'index.html')})\n`);
    const html = plain(await readFile(page, 'utf8'));
    expect(structureProblems(html)).toEqual([]);
    expect(await brokenLinks(page)).toEqual([]);
    const document = JSON.parse(await readFile(saved, 'utf8')) as { scenario: string; metrics: { name: string; kind: string }[] };
    const charted = document.metrics.filter((metric) => metric.kind !== 'count').map((metric) => metric.name);
    expect(charted).toContain('winner');
    expect(html.match(/<figure class="chart"/g)).toHaveLength(charted.length);
    expect(html).toContain('<th>metric</th><th>value</th><th>estimate</th><th>95% interval</th>');
    expect(html).toContain(`<td>${SCENARIO}</td>`);
    expect(html).toMatch(/<li>A regenerating Ogre[^<]*: options in force as [^<]*allocation: /);
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<a href="knights.html">');
  });

  it('takes a list of results (several scenarios) and documents written one after another', async () => {
    const out = path.join(root, 'cli-several');
    const concatenated = path.join(root, 'concatenated.json');
    await writeFile(concatenated, `${await readFile(saved, 'utf8')}${await readFile(savedTwo, 'utf8')}`);
    const result = await cli('report', concatenated, '--out', out, '--slug', 'three-runs', '--title', 'Three runs');
    expect(result.stderr).toBe('');
    const html = await readFile(path.join(out, 'three-runs.html'), 'utf8');
    expect(html).toContain('<h1>Three runs</h1>');
    expect(html.match(/<h2>[^<]*every metric<\/h2>/g)).toHaveLength(3);
    // Headings name metrics in words (their descriptions), the text gives the metric's name.
    expect(html).toContain('<h2>A Draugr hit by Frost, then by a Firebolt: Side whose enemies were all vanquished</h2>');
    expect(html).toContain(
      '<p>Metric winner: side whose enemies were all vanquished (none: round limit reached, or both sides wiped out).</p>',
    );
  });

  it('reports bad input as <file>: <path>: <problem> lines, exit 2, no stack trace', async () => {
    const write = async (name: string, text: string): Promise<string> => {
      const file = path.join(root, name);
      await writeFile(file, text);
      return file;
    };
    const missing = path.join(root, 'missing.json');
    const badJson = await write('bad.json', '{\n  "scenario": "x",\n  "seed": ]\n}\n');
    const notResult = await write('not-result.json', '{ "hello": "world" }');
    const document = JSON.parse(await readFile(saved, 'utf8')) as Record<string, unknown> & { metrics: Record<string, unknown>[] };
    const wrongField = await write(
      'wrong-field.json',
      JSON.stringify({ ...document, trials: 'many', metrics: [{ ...document.metrics[0], kind: 'bogus' }] }),
    );
    const badItem = await write('bad-item.json', JSON.stringify([document, { ...document, seed: -1 }]));
    const empty = await write('empty.json', ' \n');
    const second = await write('second-bad.json', `${JSON.stringify(document)}\n[1, 2]\n`);
    const result = await cli('report', missing, badJson, notResult, wrongField, badItem, empty, second, '--out', path.join(root, 'never'));
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(STACK_LINE);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      `${missing}: (root): file not found`,
      `${badJson}: line 3, column 11: invalid JSON: Unexpected token ']'`,
      `${notResult}: (root): not a crucible result: expected what \`crucible run --json\` prints (an object with scenario, engineVersion, metrics and either seed and trials or method "exact", or a list of them), or what matchups, compare, sweep or balance print with --json (an object with its kind)`,
      expect.stringMatching(new RegExp(`^${wrongField.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: trials: `)),
      expect.stringMatching(/: metrics\[0\]\.kind: .*"category"/),
      expect.stringMatching(/bad-item\.json: \[1\]\.seed: /),
      `${empty}: (root): the file is empty`,
      expect.stringMatching(/second-bad\.json: document 2, \[0\]: not a crucible result/),
      expect.stringMatching(/second-bad\.json: document 2, \[1\]: not a crucible result/),
    ]);
    expect(await exists(path.join(root, 'never'))).toBe(false);
  });

  it('refuses a --slug that is not a file name', async () => {
    const result = await cli('report', saved, '--out', path.join(root, 'never'), '--slug', '../x');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^error: --slug must be a file name/);
  });
});
