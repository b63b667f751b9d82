import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeIndex } from '../../reports/page.js';
import { InputError } from '../../input/errors.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { type CliRun, runCli } from '../helpers/capture.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/**
 * Issue 17, what a command line can do: a report folder that cannot be made ends at once with
 * exit 2 (Node 20's recursive mkdir spins for good under /proc); a value or field path typed with
 * `--set` is checked for control characters like the file's own text (else it reaches the terminal
 * raw); a run of one trial says "1 trial". Every case must end well within the issue's 2 s.
 */

const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
/** The bound on any hostile input, in ms of CPU time (test/helpers/cpu-time.ts). */
const BOUND_MS = 2000;
/** A hang fails by the test's own timeout: by the clock, so with room for a loaded machine. */
const HOSTILE = { timeout: 30_000 };
/** A control character or bidirectional override anywhere in what was printed. */
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_PROBLEM = 'holds the control character';

const folder = mkdtemp(path.join(tmpdir(), 'crucible-hostile-options-'));
afterAll(async () => rm(await folder, { recursive: true, force: true }));

async function timed(args: readonly string[]): Promise<CliRun> {
  const started = cpuMilliseconds();
  const result = await runCli(args);
  expect(cpuMilliseconds() - started).toBeLessThan(BOUND_MS);
  return result;
}

/** Refused with exit 2, one line naming the field, and no control character printed. */
function expectRefused(result: CliRun, line: string): void {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(line);
  expect(result.stderr).not.toMatch(UNPRINTABLE);
}

describe('report --out where no folder can be made', HOSTILE, () => {
  const results = (async () => {
    const run = await runCli(['run', HEROIC, '--trials', '1000', '--json', '-q']);
    expect(run.status).toBe(0);
    const file = path.join(await folder, 'results.json');
    await writeFile(file, run.stdout);
    return file;
  })();

  it.each(['/proc/crucible-probe-out', '/proc/crucible-probe/a/b', '/proc/self', '/sys/crucible-probe-out'])(
    '%s: exit 2 at once, nothing created',
    async (out) => {
      const result = await timed(['report', await results, '--out', out]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^${out}: \\(root\\): cannot write the report here: /(proc|sys) is a kernel file system`));
      expect(out === '/proc/self' || !existsSync(out)).toBe(true);
    },
  );

  it('a file in the way of the folder: exit 2 naming it', async () => {
    const blocker = path.join(await folder, 'a-file');
    await writeFile(blocker, 'x');
    const out = path.join(blocker, 'report');
    const result = await timed(['report', await results, '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${out}: (root): cannot write the report here: a file is in the way`);
  });

  it('the folders missing on the way are made one level at a time', async () => {
    const out = path.join(await folder, 'deep', 'er', 'report');
    expect(await writeIndex(out)).toBe(path.join(out, 'index.html'));
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain('<html');
    await expect(writeIndex('/proc/crucible-probe-out')).rejects.toThrow(InputError);
  });
});

describe('--set values and paths are checked for control characters', HOSTILE, () => {
  it('run: a value holding ESC is refused at its field', async () => {
    expectRefused(
      await timed(['run', HEROIC, '--trials', '100', '--set', 'sides[0].name=X\u001b[31mRED']),
      `${HEROIC}: sides[0].name: ${CONTROL_PROBLEM} U+001B`,
    );
  });

  it('run: inside a JSON value, at the element that holds it', async () => {
    expectRefused(
      await timed(['run', HEROIC, '--trials', '100', '--set', 'sides.1.groups=[{"id":"a\u202eb"}]']),
      `${HEROIC}: sides[1].groups[0].id: ${CONTROL_PROBLEM} U+202E`,
    );
  });

  it('run: a field path holding one is refused without being echoed', async () => {
    expectRefused(
      await timed(['run', HEROIC, '--trials', '100', '--set', 'sides[0].n\u001b]0;owned\u0007=1']),
      `${HEROIC}: (root): a field path ${CONTROL_PROBLEM} U+001B`,
    );
  });

  it('sweep: any value of an axis, once per field', async () => {
    const result = await timed(['sweep', HEROIC, '-n', '100', '--set', 'sides[0].name=A\u001b[31m,B\u001b[31m,C']);
    expectRefused(result, `${HEROIC}: sides[0].name: ${CONTROL_PROBLEM} U+001B`);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an option value commander itself refuses is echoed with its control characters escaped', async () => {
    const result = await runCli(['sweep', HEROIC, '--set', 'a\u001b[31m']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("argument 'a\\u001b[31m' is invalid");
    expect(result.stderr).not.toMatch(UNPRINTABLE);
  });

  it('sweep: an axis path holding one', async () => {
    expectRefused(
      await timed(['sweep', HEROIC, '-n', '100', '--set', 'sides[0].n\u009b=1,2']),
      `${HEROIC}: (root): a field path ${CONTROL_PROBLEM} U+009B`,
    );
  });

  it("a variant's set: is refused with the file", async () => {
    // A copy outside the repository, its units file named (it would be looked for beside the copy).
    const text = (await readFile(HEROIC, 'utf8'))
      .replace('set: { "options.allocation": least-damaged }', 'set: { "sides[1].name": "K\\u001b[31m" }')
      .replace(/^mode:/m, `unitsFile: ${JSON.stringify(path.resolve('data/heroic/units.yaml'))}\nmode:`);
    expect(text).toContain('K\\u001b');
    const scenario = path.join(await folder, 'variant.yaml');
    await writeFile(scenario, text);
    const result = await timed(['compare', scenario, '--variant', 'least-damaged', '-n', '100']);
    expectRefused(result, `${scenario}: variants[1].set["sides[1].name"]: ${CONTROL_PROBLEM} U+001B`);
  });

  it('the API refuses the same through loadScenarioChanged', async () => {
    const refused = await loadScenarioChanged(HEROIC, { fields: [['sides[0].name', 'X\u0007']] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).problems).toEqual([
      expect.objectContaining({
        file: HEROIC,
        path: 'sides[0].name',
        message: expect.stringContaining(`${CONTROL_PROBLEM} U+0007`) as unknown,
      }),
    ]);
  });
});

describe('trial counts in words', HOSTILE, () => {
  it('--max-trials 1 ran "1 trial", not "1 trials"', async () => {
    const result = await timed(['run', HEROIC, '--precision', '0.01', '--max-trials', '1']);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/: 1 trial in \d/);
    expect(result.stderr).not.toMatch(/: 1 trials in/);
  });

  it('two are still "2 trials"', async () => {
    const result = await timed(['run', HEROIC, '--trials', '2', '--workers', '0']);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/: 2 trials in \d/);
  });
});
