import { mkdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { writeAtomically } from '../sim/atomic-write.js';
import { InputError, ROOT_PATH } from '../input/errors.js';
import { indexHtml, offlineSpec, pageHtml } from './html.js';
import { DEFAULT_REPORT_DIRECTORY, type ManifestEntry, type ReportPage } from './page-model.js';
import { renderPng, renderSvg } from './render.js';

export { escapeHtml, pageHtml, provenanceHtml, scriptJson } from './html.js';
export { type PageSection, type PageTable, type Provenance, type ReportPage, slugify } from './page-model.js';

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
export { DEFAULT_REPORT_DIRECTORY };
const MANIFEST = 'pages.json';

/** The browser bundles copied into <out>/assets/, in the order the page loads them. */
const BUNDLES: readonly { readonly packageName: string; readonly file: string }[] = [
  { packageName: 'vega', file: 'vega.min.js' },
  { packageName: 'vega-lite', file: 'vega-lite.min.js' },
  { packageName: 'vega-embed', file: 'vega-embed.min.js' },
];

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkName(what: string, name: string): void {
  if (!SAFE_NAME.test(name))
    throw new RangeError(
      `${what} ${JSON.stringify(name)} must be a file name: letters, digits, ".", "_" and "-", starting with a letter or digit (slugify() makes one)`,
    );
}

/** The report cannot go where it was asked: what to tell the user (asOutputProblem names the folder). */
class UnwritablePlace extends Error {
  readonly code = 'EUNWRITABLE';
}

/** Kernel file systems: they hold no files of ours, and as root a mkdir there can even create kernel objects (a cgroup under /sys/fs/cgroup). */
const KERNEL_FILE_SYSTEMS: readonly string[] = ['/proc', '/sys'];

/**
 * Create `directory` and its missing parents, one level at a time: Node 20's
 * mkdir({ recursive: true }) retries for good when a parent refuses new entries with ENOENT (/proc).
 * A place under /proc or /sys is refused before anything is created.
 */
async function makeDirectory(directory: string): Promise<void> {
  const missing: string[] = [];
  let at = path.resolve(directory);
  for (;;) {
    const info = await stat(at).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw error;
    });
    if (info !== undefined) {
      if (!info.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
      const real = await realpath(at);
      const kernel = KERNEL_FILE_SYSTEMS.find((root) => real === root || real.startsWith(`${root}/`));
      if (kernel !== undefined) throw new UnwritablePlace(`${kernel} is a kernel file system, not a place for files`);
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // Another writer made it meanwhile.
      if (code === 'EEXIST' && (await stat(level).catch(() => undefined))?.isDirectory() === true) continue;
      if (code === 'ENOENT') throw new UnwritablePlace(`the folder ${level} cannot be created (its parent takes no new folders)`);
      throw error;
    }
  }
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
  await makeDirectory(assets);
  for (const { packageName, file } of BUNDLES) {
    const source = await readFile(path.join(packageDirectory(packageName), 'build', file), 'utf8');
    const bundle = source.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
    const target = path.join(assets, file);
    if ((await readFile(target, 'utf8').catch(() => undefined)) !== bundle) await writeAtomically(target, bundle);
  }
}

const entrySchema = z.object({
  slug: z.string().regex(SAFE_NAME),
  title: z.string(),
  question: z.string(),
  written: z.string(),
  engineVersions: z.array(z.string()),
  charts: z.array(z.string()),
});
// The manifest's entry (reports/page-model.ts ManifestEntry), as read back.
entrySchema satisfies z.ZodType<ManifestEntry>;

const exists = async (file: string): Promise<boolean> => (await stat(file).catch(() => undefined)) !== undefined;

/** The pages of <out>/pages.json whose HTML file still exists; an unreadable manifest counts as empty. */
export async function readManifest(out: string): Promise<ManifestEntry[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path.join(out, MANIFEST), 'utf8'));
  } catch {
    return [];
  }
  // Entry by entry: one damaged entry leaves the others listed (it is dropped, and rewritten away on the next write).
  const pages =
    data !== null && typeof data === 'object' && Array.isArray((data as { pages?: unknown }).pages)
      ? (data as { pages: unknown[] }).pages
      : [];
  const valid = pages.flatMap((entry) => {
    const parsed = entrySchema.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
  const present = await Promise.all(valid.map((entry) => exists(path.join(out, `${entry.slug}.html`))));
  return valid.filter((_, i) => present[i] === true);
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

/** Writes <out>/index.html listing every page of <out>/pages.json (title, question, when, engine versions). */
export async function writeIndex(outDirectory: string = DEFAULT_REPORT_DIRECTORY): Promise<string> {
  return asOutputProblem(outDirectory, () => writeIndexHere(outDirectory));
}

async function writeIndexHere(outDirectory: string): Promise<string> {
  await makeDirectory(outDirectory);
  const file = path.join(outDirectory, 'index.html');
  await writeAtomically(file, indexHtml(await readManifest(outDirectory)));
  return file;
}

/**
 * A file-system error while writing the report (the folder is a file, read-only, a device, the disk
 * full…) is the user's output path, not a crucible bug: exit 2 naming it.
 */
async function asOutputProblem<T>(outDirectory: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('E')) throw error;
    const why =
      error instanceof UnwritablePlace
        ? error.message
        : code === 'ENOTDIR' || code === 'EEXIST'
          ? 'a file is in the way of the report folder (or of its charts/ or assets/)'
          : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
            ? 'permission denied'
            : code === 'EISDIR'
              ? 'a folder is where a page or chart file goes'
              : code === 'ENOSPC'
                ? 'the disk is full'
                : (error as Error).message;
    throw InputError.at(outDirectory, ROOT_PATH, `cannot write the report here: ${why}`);
  }
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
  return asOutputProblem(outDirectory, () => writePageHere(page, outDirectory));
}

async function writePageHere(page: ReportPage, outDirectory: string): Promise<string> {
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
      if (owner !== undefined)
        throw new RangeError(
          `page ${page.slug}: chart id ${JSON.stringify(id)} is already used by page ${owner} of ${outDirectory}; chart ids must be unique across a report`,
        );
    }
  };
  clash(await readManifest(outDirectory));

  const chartsDirectory = path.join(outDirectory, 'charts');
  await makeDirectory(chartsDirectory);
  if (charts.length > 0) await copyAssets(outDirectory);
  const svgs = new Map<string, string>();
  for (const chart of charts) {
    const svg = await renderSvg(chart);
    svgs.set(chart.id, svg);
    const base = path.join(chartsDirectory, chart.id);
    await writeAtomically(`${base}.vl.json`, `${JSON.stringify(offlineSpec(chart.spec), null, 2)}\n`);
    await writeAtomically(`${base}.svg`, svg);
    await writeAtomically(`${base}.png`, await renderPng(svg));
  }
  const file = path.join(outDirectory, `${page.slug}.html`);
  await writeAtomically(file, pageHtml(page, svgs));

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
    await writeAtomically(path.join(outDirectory, MANIFEST), `${JSON.stringify({ pages }, null, 2)}\n`);
    await writeIndex(outDirectory);
  });
  return file;
}
