import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { MAX_DATA_FILE_BYTES } from '../../input/data-file.js';
import { runCli } from '../helpers/capture.js';
import { BUILT_IN_EXAMPLES } from '../helpers/examples.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Inputs that are not regular files — a FIFO (opening it waits for a writer, for good), a device
 * (/dev/zero never ends) — or are too large are refused at once with exit 2, naming the file
 * (issue 17 M1, L7, L8). Nothing is opened before the check — unless the person named the pipe on
 * the command line (issue 34): then it is read, within the same size limit.
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
let directory: string;
let fifo: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-unreadable-'));
  fifo = path.join(directory, 'pipe.yaml');
  execFileSync('mkfifo', [fifo]);
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const NOT_A_FILE = 'not a regular file (a FIFO, device or socket): crucible reads only files';

/** Write `text` into the FIFO from another process, as a shell's `cat x > fifo` would (opening it waits for this process's reader). */
function feed(text: string): ChildProcess {
  const writer = spawn('sh', ['-c', `cat > '${fifo}'`], { stdio: ['pipe', 'ignore', 'ignore'] });
  writer.stdin.end(text);
  return writer;
}

describe('inputs that are not files', () => {
  // Named on the command line, a pipe is what the person asked for (`<(…)`, issue 34): read, within the same limits.
  it('a FIFO named as the scenario or a report input is read to its end', async () => {
    const scenario = await readFile(SCENARIO, 'utf8');
    feed(scenario);
    const validated = await runCli(['validate', fifo]);
    expect(validated.stderr).toBe('');
    expect(validated.stdout).toBe(`ok ${fifo}\n`);
    feed(scenario);
    const run = await runCli(['run', fifo, '-n', '1000', '-w', '0', '--json', '--quiet']);
    expect(run.status, run.stderr).toBe(0);
    feed(run.stdout);
    const reported = await runCli(['report', fifo, '--out', path.join(directory, 'report')]);
    expect(reported.status, reported.stderr).toBe(0);
  });

  it('a FIFO named on the command line that goes on past the limit is refused once it has read that much', async () => {
    feed(`# ${'x'.repeat(MAX_DATA_FILE_BYTES)}\n`);
    const result = await runCli(['validate', fifo]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${fifo}: (root): too large: more than 2 MB, the most crucible reads here`);
  });

  it('a FIFO or a device as the checkpoint', async () => {
    for (const checkpoint of [fifo, '/dev/zero']) {
      const result = await runCli(['run', SCENARIO, '-n', '1000', '-w', '0', '--checkpoint', checkpoint]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${checkpoint}: (root): --checkpoint: cannot read the checkpoint: ${NOT_A_FILE}`);
    }
  });

  // Every rule system engine/registry.ts lists, on the scenario and data files its examples.ts names (`sample`).
  it.each(BUILT_IN_EXAMPLES.map((found) => ({ ...found, ruleset: found.system.id, ...found.examples.sample })))(
    '$ruleset: a FIFO, or a link to /dev/zero, as the first data file $scenario reads',
    async (system) => {
      const root = path.join(directory, system.ruleset);
      const scenario = path.join(root, system.scenario);
      await mkdir(path.dirname(scenario), { recursive: true });
      // Read as this rule system's whatever its `ruleset:` names (a plugin's scenario names its module).
      await writeFile(
        scenario,
        stringify({ ...(parse(await readFile(system.file(system.scenario), 'utf8')) as object), ruleset: system.ruleset }),
      );
      for (const file of system.dataFiles) await cp(system.file(file), path.join(root, file), { recursive: true });
      const target = path.join(root, system.dataFiles[0] ?? '');
      for (const make of [() => execFileSync('mkfifo', [target]), () => symlinkSync('/dev/zero', target)]) {
        await rm(target, { force: true });
        make();
        const result = await runCli(['validate', scenario]);
        expect(result.status).toBe(2);
        expect(result.stderr).toContain(`${target}: (root): ${NOT_A_FILE}`);
      }
    },
  );

  it('a checkpoint that is another device, or larger than the limit, is refused before it is read', async () => {
    const large = path.join(directory, 'large.ckpt');
    // Sparse: 34 MB on paper, nothing on disk; refused by its size alone.
    await writeFile(large, '');
    await truncate(large, 34 * 2 ** 20);
    for (const [checkpoint, problem] of [
      ['/dev/urandom', NOT_A_FILE],
      ['/dev/full', NOT_A_FILE],
      [large, 'too large: 34.0 MB (the most crucible reads here is 8 MB)'],
    ] as const) {
      const result = await runCli(['run', SCENARIO, '-n', '1000', '-w', '0', '--checkpoint', checkpoint]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${checkpoint}: (root): --checkpoint: cannot read the checkpoint: ${problem}`);
    }
  });

  it('a scenario larger than the limit', async () => {
    const huge = path.join(directory, 'huge.yaml');
    await writeFile(huge, `# ${'x'.repeat(MAX_DATA_FILE_BYTES)}\n`);
    const result = await runCli(['validate', huge]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`${huge.replaceAll('.', '\\.')}: \\(root\\): too large: 2\\.0 MB \\(the most crucible reads here is 2 MB\\)`),
    );
  });
});

describe('--workers', () => {
  it('more workers than cores is clamped to the cores, with a note, and changes no number', async () => {
    const { usefulWorkers } = await import('../../cli/commands/options.js');
    const notes: string[] = [];
    expect(usefulWorkers(64, (text) => notes.push(text), 2)).toBe(2);
    expect(notes[0]).toContain('--workers 64 is more than this machine');
    expect(usefulWorkers(1, (text) => notes.push(text), 2)).toBe(1);
    expect(usefulWorkers(undefined, (text) => notes.push(text), 2)).toBe(2);
    expect(notes).toHaveLength(1);
  });
});

describe('YAML that would cost too much', () => {
  it('duplicate keys are found in linear time, with line and column', async () => {
    const file = path.join(directory, 'duplicate.yaml');
    await writeFile(file, 'ruleset: heroic\nname: x\nname: y\n');
    const result = await runCli(['validate', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}: line 3, column 1: invalid YAML: Map keys must be unique ("name" again)`);
  });

  it('40,000 keys parse quickly (the check is linear) and are refused as unknown fields', async () => {
    const file = path.join(directory, 'keys.yaml');
    await writeFile(file, `ruleset: heroic\nname: x\nextra:\n${Array.from({ length: 40_000 }, (_, i) => `  k${i}: 1\n`).join('')}`);
    const result = await runCli(['validate', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file}: extra: unknown field "extra"`);
  });

  it('aliases that would repeat more than 2 MB of text are refused before they are expanded', async () => {
    const file = path.join(directory, 'bomb.yaml');
    await writeFile(
      file,
      `ruleset: heroic\nname: x\nbig: &a "${'x'.repeat(1_000_000)}"\nlist: [${Array.from({ length: 998 }, () => '*a').join(',')}]\n`,
    );
    const result = await runCli(['validate', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/bomb\.yaml: line 4, column \d+: invalid YAML: its aliases repeat more than 2 MB of text/);
  });
});

describe('names that would steer a terminal', () => {
  it('a control character or a bidirectional override in any string of a data file is refused, naming the field', async () => {
    const cases = [
      { text: 'ruleset: heroic\nname: "evil\\u001b[31mred"\n', path: 'name', code: 'U+001B' },
      { text: 'ruleset: heroic\nname: ok\nsides:\n  - name: "abc\\u202edcba"\n', path: 'sides[0].name', code: 'U+202E' },
    ];
    for (const [i, { text, path: field, code }] of cases.entries()) {
      const file = path.join(directory, `unprintable-${i}.yaml`);
      await writeFile(file, text);
      const result = await runCli(['validate', file]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${file}: ${field}: holds the control character ${code}`);
    }
  });
});
