import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `crucible report` on what a valid scenario can hold and on bad output paths (issue 17 L1–L3):
 * a side named with U+2028/U+2029 (vega's expression parser ends a string there), group ids long
 * enough that cut chart ids used to collide, and an --out that cannot be a folder — each a page or
 * exit 2 naming the path, never exit 1.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-hostile-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The bundled scenario with `edit` applied to its text, run, and its --json saved. */
async function savedRun(name: string, edit: (text: string) => string): Promise<string> {
  const text = edit(
    (await readFile(SCENARIO, 'utf8')).replace(
      'mode: engagement',
      `unitsFile: ${path.join(REPOSITORY, 'data/heroic/units.yaml')}\nmode: engagement`,
    ),
  );
  const scenario = path.join(directory, `${name}.yaml`);
  await writeFile(scenario, text);
  const run = await runCli(['run', scenario, '-n', '200', '-w', '0', '--json']);
  expect(run.status, run.stderr).toBe(0);
  const saved = path.join(directory, `${name}.json`);
  await writeFile(saved, run.stdout);
  return saved;
}

describe('report on hostile but valid inputs', () => {
  it('a side name with U+2028 and U+2029 makes a page', async () => {
    const saved = await savedRun('separators', (text) => text.replace('name: Regenerating Ogre', 'name: "Regen\\u2028erating\\u2029Ogre"'));
    const report = await runCli(['report', saved, '--out', path.join(directory, 'separators')]);
    expect(report.status, report.stderr).toBe(0);
  });

  it('group ids of 80 characters make a page (chart ids stay distinct)', async () => {
    const long = 'k'.repeat(80);
    const saved = await savedRun('long-ids', (text) =>
      text.replace('id: knights', `id: ${long}`).replace('target: knights', `target: ${long}`),
    );
    const report = await runCli(['report', saved, '--out', path.join(directory, 'long')]);
    expect(report.status, report.stderr).toBe(0);
  });

  it('an --out that is a file, or under one, is exit 2 naming it', async () => {
    const saved = await savedRun('plain', (text) => text);
    const file = path.join(directory, 'a-file');
    await writeFile(file, 'x');
    for (const out of [file, path.join(file, 'under'), '/dev/null']) {
      const report = await runCli(['report', saved, '--out', out]);
      expect(report.status).toBe(2);
      expect(report.stderr).toContain(`${out}: (root): cannot write the report here:`);
    }
    // The page's own file is a folder.
    const taken = path.join(directory, 'taken');
    await mkdir(path.join(taken, 'plain.html'), { recursive: true });
    const report = await runCli(['report', saved, '--out', taken]);
    expect(report.status).toBe(2);
    expect(report.stderr).toContain(`${taken}: (root): cannot write the report here:`);
  });

  it('one damaged entry in pages.json leaves the other pages in the index', async () => {
    const saved = await savedRun('manifest', (text) => text);
    const out = path.join(directory, 'manifest');
    expect((await runCli(['report', saved, '--out', out, '--slug', 'first'])).status).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(out, 'pages.json'), 'utf8')) as { pages: unknown[] };
    await writeFile(path.join(out, 'pages.json'), JSON.stringify({ pages: [{ slug: '../../etc', title: 1 }, ...manifest.pages] }));
    expect((await runCli(['report', saved, '--out', out, '--slug', 'second'])).status).toBe(0);
    const index = await readFile(path.join(out, 'index.html'), 'utf8');
    expect(index).toContain('href="first.html"');
    expect(index).toContain('href="second.html"');
    expect(index).not.toContain('etc');
  });

  it('crafted results are bounded: values per metric, name length, results per page (exit 2, not a stall)', async () => {
    const saved = await savedRun('crafted', (text) => text);
    const result = JSON.parse(await readFile(saved, 'utf8')) as { metrics: { kind: string; name: string; distribution: unknown[] }[] };
    const write = async (name: string, text: string) => {
      const file = path.join(directory, name);
      await writeFile(file, text);
      return file;
    };
    const category = result.metrics.find((metric) => metric.kind === 'category');
    if (category === undefined) throw new Error('no category metric');
    const many = structuredClone(result);
    const target = many.metrics.find((metric) => metric.name === category.name);
    if (target !== undefined)
      target.distribution = Array.from({ length: 1200 }, (_, value) => ({
        value,
        label: `L${value}`,
        count: 0,
        probability: 0,
        interval: { low: 0, high: 1 },
      }));
    const long = structuredClone(result);
    if (long.metrics[0] !== undefined) long.metrics[0].name = 'm'.repeat(1_000_000);
    const cases = [
      { file: await write('values.json', JSON.stringify(many)), says: 'distribution: must list at most 500 items, got 1200' },
      { file: await write('name.json', JSON.stringify(long)), says: 'metrics[0].name: must be at most 1000 characters long' },
      {
        file: await write('results.json', Array.from({ length: 101 }, () => JSON.stringify(result)).join('\n')),
        says: 'one page holds at most 100 results, and these files hold 101',
      },
    ];
    for (const { file, says } of cases) {
      const report = await runCli(['report', file, '--out', path.join(directory, 'crafted-out')]);
      expect(report.status).toBe(2);
      expect(report.stderr).toContain(says);
    }
  });
});
