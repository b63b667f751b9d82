import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Issue 31: a field called `__proto__` was dropped without a word, and problems of a file a
 * scenario points at (`unitsFile:`) quoted its contents — pointed at a secrets file, they printed
 * the secrets. `crucible validate`, in process.
 */

let directory: string;
let scenario: string;
const file = (name: string): string => path.join(directory, name);

/** The bundled scenario, its units file `unitsFile`, with `extra` lines at its end. */
async function writeScenario(name: string, unitsFile: string, extra = ''): Promise<string> {
  const text = scenario.replace(/^rounds:/m, `unitsFile: ${JSON.stringify(unitsFile)}\nrounds:`);
  await writeFile(file(name), `${text}${extra}`);
  return file(name);
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-referenced-'));
  scenario = await readFile(path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml'), 'utf8');
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('fields called __proto__', () => {
  it('are refused by name, in YAML and in JSON', async () => {
    const units = path.join(REPOSITORY, 'data/heroic/units.yaml');
    const yaml = await runCli(['validate', await writeScenario('proto.yaml', units, 'units:\n  __proto__:\n    def: 9\n')]);
    expect(yaml.status).toBe(2);
    expect(yaml.stderr).toMatch(/proto\.yaml: units\.__proto__: a field may not be called __proto__/);
    await writeFile(file('proto-units.json'), '{"units": [], "__proto__": {"units": []}}');
    const json = await runCli(['validate', await writeScenario('proto-json.yaml', file('proto-units.json'))]);
    expect(json.status).toBe(2);
    expect(json.stderr).toMatch(/proto-units\.json: __proto__: a field may not be called __proto__/);
  });
});

describe('a file a scenario points at', () => {
  it('is named with the field at fault, its values never quoted', async () => {
    await writeFile(file('secrets.env.yaml'), 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI-SECRET-1\n');
    await writeFile(
      file('secrets.json'),
      JSON.stringify({
        note: 'SECRET-2',
        units: [{ id: 'SECRET 3', name: 'x', def: 'SECRET-4', might: 1, will: 1, weapons: [] }, 'SECRET-5'],
      }),
    );
    for (const [name, expected] of [
      ['secrets.env.yaml', /secrets\.env\.yaml: \(root\): must be a mapping of fields \(units, …\), got text/],
      ['secrets.json', /secrets\.json: units\[0\]\.id: must be lower-case letters, digits and dashes \(e\.g\. "sylvan-knight"\), got text/],
    ] as const) {
      const result = await runCli(['validate', await writeScenario(`points-at-${name}.yaml`, file(name))]);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(expected);
      expect(result.stderr).not.toContain('SECRET');
    }
    // The scenario's own values are still quoted: it is the file the user is writing.
    await writeFile(file('own.yaml'), scenario.replace(/^rounds: 20$/m, 'rounds: "twenty"'));
    expect((await runCli(['validate', file('own.yaml')])).stderr).toContain('got "twenty"');
  });
});
