import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_DATA_VALUES, MAX_NESTING, MAX_YAML_ANCHORS_AND_ALIASES, unprintableProblems } from '../../input/data-file.js';
import { formatProblem, InputError, MAX_PROBLEMS_PER_FILE } from '../../input/errors.js';
import { describeZodIssues } from '../../input/zod-issues.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/**
 * Hostile texts in data files, checkpoints and report inputs (issue 17, the probe's remaining
 * cases): too many problems, nesting, anchors and aliases, CR and line breaks in names. Each ends in
 * exit 2 with one `<file>: <where>: <problem>` line naming the limit, and at once. The probe's
 * inputs were 2 MB; these are small, but reach the same checks (the limit's own boundary).
 */

const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
let directory: string;
let scenarioText: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-hostile-text-'));
  scenarioText = await readFile(SCENARIO, 'utf8');
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, text);
  return file;
}

const UNITS = path.join(REPOSITORY, 'data/heroic/units.yaml');

/** A bundled scenario (valid, its units file named by absolute path) with `extra` appended. */
const scenarioWith = (extra: string, text = scenarioText): string => `${text.trimEnd()}\nunitsFile: ${UNITS}\n${extra}\n`;

/** `crucible <args>` ends in exit 2 at once (no stack trace), its stderr's lines returned. */
async function refused(args: readonly string[]): Promise<string[]> {
  const started = cpuMilliseconds();
  const result = await runCli(args);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(cpuMilliseconds() - started).toBeLessThan(1500);
  return result.stderr.trimEnd().split('\n');
}

const TOO_DEEP = `lists and mappings nested more than ${MAX_NESTING} levels deep (the most crucible reads)`;

describe('too many problems', () => {
  it(`a file with 5,000 unknown keys lists ${MAX_PROBLEMS_PER_FILE} of them, then one line counting the rest`, async () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `k${i}: 1`).join('\n');
    const file = await write('keys.yaml', scenarioWith(keys));
    const lines = await refused(['validate', file]);
    expect(lines).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(lines[0]).toMatch(new RegExp(`^${file}: k0: unknown field "k0" \\(`));
    expect(lines.at(-1)).toBe(
      `${file}: (root): … and ${(5_000 - MAX_PROBLEMS_PER_FILE).toLocaleString('en-US')} more problems (only the first ${MAX_PROBLEMS_PER_FILE} of a file are listed)`,
    );
  });

  it('200,000 unknown keys are described without spreading them onto the stack (once "Maximum call stack size exceeded")', () => {
    const keys = Array.from({ length: 200_000 }, (_, i) => `k${i}`);
    const described = describeZodIssues(
      [{ code: 'unrecognized_keys', keys, path: [], message: '', input: {} }],
      {},
      z.strictObject({ name: z.string() }),
    );
    expect(described).toHaveLength(200_000);
    const error = new InputError(described.map((issue) => ({ file: 'f.yaml', path: String(issue.path[0]), message: issue.message })));
    expect(error.problems).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
    expect(error.message.split('\n')).toHaveLength(MAX_PROBLEMS_PER_FILE + 1);
  });

  it(`a YAML file of more than ${MAX_DATA_VALUES.toLocaleString('en-US')} values is refused while it is read, at the value past the limit`, async () => {
    const file = await write('values.yaml', scenarioWith(`junk: [${'1,'.repeat(MAX_DATA_VALUES)}1]`));
    const [line] = await refused(['validate', file]);
    expect(line).toMatch(
      new RegExp(
        `^${file}: line \\d+, column \\d+: invalid YAML: the file holds more than ${MAX_DATA_VALUES.toLocaleString('en-US')} values \\(`,
      ),
    );
  });
});

describe('nesting', () => {
  const depth = MAX_NESTING + 36;
  it(`YAML nested past ${MAX_NESTING} levels — brackets, braces, "- - -" or indentation — is refused where it passes the limit`, async () => {
    // `x: ` opens level 1; the 64th bracket is level 65, at column 3 + 64.
    const cases = [
      { name: 'brackets.yaml', text: `x: ${'['.repeat(depth)}${']'.repeat(depth)}\n`, at: `line 1, column ${3 + MAX_NESTING}` },
      { name: 'braces.yaml', text: `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}\n`, at: `line 1, column ${4 * MAX_NESTING + 1}` },
      { name: 'dashes.yaml', text: `${'- '.repeat(depth)}x\n`, at: `line 1, column ${2 * MAX_NESTING + 1}` },
      {
        name: 'indented.yaml',
        text: Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
        at: `line ${MAX_NESTING + 1}, column ${MAX_NESTING + 1}`,
      },
    ];
    for (const { name, text, at } of cases) {
      const file = await write(name, text);
      expect(await refused(['validate', file])).toEqual([`${file}: ${at}: invalid YAML: ${TOO_DEEP}`]);
    }
  });

  it(`exactly ${MAX_NESTING} levels are read (the file is then judged on its fields)`, async () => {
    const file = await write('at-limit.yaml', scenarioWith(`junk: ${'['.repeat(MAX_NESTING - 1)}${']'.repeat(MAX_NESTING - 1)}`));
    const lines = await refused(['validate', file]);
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^${file}: junk: unknown field "junk"`))]);
  });

  it('JSON nested too deeply is refused by a scan of the text, before it is parsed; brackets inside strings do not count', async () => {
    const file = await write('deep.json', `{"name": "[[[[\\"[[[", "x": ${'['.repeat(depth)}${']'.repeat(depth)}}`);
    // Level 1 is the `{`; the 64th `[` (level 65) follows `{"name": "[[[[\"[[[", "x": ` (27 characters).
    expect(await refused(['validate', file])).toEqual([`${file}: line 1, column ${27 + MAX_NESTING}: invalid JSON: ${TOO_DEEP}`]);
  });

  it('a checkpoint nested too deeply is refused as damaged, before it is parsed', async () => {
    const file = await write('deep.ckpt', `${'['.repeat(depth)}${']'.repeat(depth)}`);
    const lines = await refused(['run', SCENARIO, '--trials', '70000', '--workers', '0', '--checkpoint', file]);
    expect(lines).toEqual([
      `${file}: line 1, column ${MAX_NESTING + 1}: damaged checkpoint: invalid JSON: ${TOO_DEEP} (delete the file to start the run over)`,
    ]);
  });

  it('a report input nested too deeply is refused before it is parsed', async () => {
    const file = await write('deep-report.json', `${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(await refused(['report', file, '--out', path.join(directory, 'report-out')])).toEqual([
      `${file}: line 1, column ${MAX_NESTING + 1}: invalid JSON: ${TOO_DEEP}`,
    ]);
  });

  it('the check for unprintable characters walks 100,000 levels without recursion', () => {
    let deep: unknown = 'end\u0007';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [problem] = unprintableProblems('f.json', deep);
    expect(problem?.message).toContain('U+0007');
    expect(problem?.path).toBe('[0]'.repeat(100_000));
  });
});

describe('anchors and aliases', () => {
  const anchorsMessage = `invalid YAML: more than ${MAX_YAML_ANCHORS_AND_ALIASES.toLocaleString('en-US')} anchors and aliases (&name, *name), the most crucible reads`;

  it(`more than ${MAX_YAML_ANCHORS_AND_ALIASES.toLocaleString('en-US')} anchors and aliases are refused before any is resolved (100,000 once ran for minutes)`, async () => {
    const many = await write(
      'aliases.yaml',
      scenarioWith(`junk: [&a 1, ${Array.from({ length: MAX_YAML_ANCHORS_AND_ALIASES }, () => '*a').join(', ')}]`),
    );
    expect(await refused(['validate', many])).toEqual([
      expect.stringMatching(new RegExp(`^${many}: line \\d+, column \\d+: ${anchorsMessage.replace(/[()*]/g, '\\$&')}$`)),
    ]);
    // One fewer is read: the file is then judged on its fields.
    const atLimit = await write(
      'aliases-at-limit.yaml',
      scenarioWith(`junk: [&a 1, ${Array.from({ length: MAX_YAML_ANCHORS_AND_ALIASES - 1 }, () => '*a').join(', ')}]`),
    );
    expect(await refused(['validate', atLimit])).toEqual([expect.stringMatching(new RegExp(`^${atLimit}: junk: unknown field "junk"`))]);
  });

  it('an alias bomb (aliases of aliases) is refused by the values it would expand to; an alias inside its own anchor is refused', async () => {
    const levels = Array.from({ length: 6 }, (_, i) =>
      i === 0 ? 'l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]' : `l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`,
    );
    const bomb = await write('bomb.yaml', scenarioWith(levels.join('\n')));
    const [line] = await refused(['validate', bomb]);
    expect(line).toMatch(
      new RegExp(
        `^${bomb}: line \\d+, column \\d+: invalid YAML: the file holds more than ${MAX_DATA_VALUES.toLocaleString('en-US')} values`,
      ),
    );
    // An alias of a list holding an alias repeats what that alias does: ten copies of 300,000 characters.
    const nested = await write(
      'nested.yaml',
      scenarioWith(`s: &s "${'x'.repeat(300_000)}"\nb: &b [*s]\nuse: [${Array.from({ length: 10 }, () => '*b').join(', ')}]`),
    );
    const [nestedLine] = await refused(['validate', nested]);
    expect(nestedLine).toMatch(new RegExp(`^${nested}: line \\d+, column \\d+: invalid YAML: its aliases repeat more than 2 MB of text$`));
    const cycle = await write('cycle.yaml', scenarioWith('junk: &x [1, *x]'));
    const [cycleLine] = await refused(['validate', cycle]);
    expect(cycleLine).toMatch(
      new RegExp(
        `^${cycle}: line \\d+, column 14: invalid YAML: the alias \\*x sits inside its own anchor &x: it would repeat itself for ever$`,
      ),
    );
  });
});

describe('carriage returns and line breaks', () => {
  it('CR is refused in any string; a line break in a name or a key; a description keeps its line breaks', async () => {
    const cr = await write('cr.yaml', scenarioWith('', scenarioText.replace(/^name: .*$/m, 'name: "Scen car\\rriage"')));
    expect(await refused(['validate', cr])).toEqual([
      `${cr}: name: holds the control character U+000D: names and texts may not move the cursor, recolour or reorder what is printed`,
    ]);
    const newline = await write(
      'newline.yaml',
      scenarioWith('', scenarioText.replace('- name: Sylvan Knights', '- name: "Sylvan\\nKnights"')),
    );
    expect(await refused(['validate', newline])).toEqual([
      `${newline}: sides[1].name: holds a line break: names and ids are one line (only texts such as a description may span lines)`,
    ]);
    const key = await write('key.yaml', scenarioWith('units: { "ogre\\nx": { def: 5 } }'));
    expect(await refused(['validate', key])).toEqual([
      `${key}: units: a field name holds a control character or a line break ("ogre\\nx")`,
    ]);
    const description = await write('description.yaml', scenarioWith('', scenarioText.replace(/^description: >-$/m, 'description: |-')));
    expect((await runCli(['validate', description])).status).toBe(0);
    expect(formatProblem({ file: 'a\rb', path: 'p', message: 'm\r\nn\ro' })).toBe('a\\rb: p: m\\nn\\ro');
  });
});

describe('the fields an unknown field is compared with', () => {
  it("a checkpoint's plan (a union of two shapes) lists both shapes' fields for a __proto__ key", async () => {
    const zeros = '0'.repeat(64);
    const text = `{"format":"crucible-checkpoint","version":1,"scenario":{"name":"x","digest":"${zeros}"},"engineVersion":"x","seed":1,"method":"mc","shardTrials":65536,"plan":{"trials":70000,"__proto__":{"x":1}},"completedShards":[],"trials":0,"cells":[],"checksum":"${zeros}"}`;
    const file = await write('proto-plan.ckpt', text);
    const lines = await refused(['run', SCENARIO, '--trials', '70000', '--workers', '0', '--checkpoint', file]);
    expect(lines).toEqual([
      `${file}: plan.__proto__: damaged checkpoint: unknown field "__proto__" (known fields: trials, precision, maxTrials) (delete the file to start the run over)`,
    ]);
  });

  it('a Warmaster units: change (a troop or a character) suggests the field of its kind', async () => {
    const file = await write(
      'atacks.yaml',
      [
        'ruleset: warmaster',
        'name: atacks',
        `armies: ${path.join(REPOSITORY, 'data/warmaster/armies')}`,
        'units: { "orcs/orc-warriors": { atacks: 4 } }',
        'sides:',
        '  - name: Empire',
        '    units: [{ id: knights, unit: empire/knights, charging: true, contact: { front: 3 } }]',
        '  - name: Orcs',
        '    units: [{ id: orcs, unit: orcs/orc-warriors, contact: { front: 3 } }]',
      ].join('\n'),
    );
    expect(await refused(['validate', file])).toEqual([
      `${file}: units["orcs/orc-warriors"].atacks: unknown field "atacks" (did you mean "attacks"?)`,
    ]);
  });
});
