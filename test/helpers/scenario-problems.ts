import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { stringify } from 'yaml';
import { InputError } from '../../input/errors.js';
import { loadScenarioFile } from '../../input/scenario-file.js';

/**
 * For input-error tests: write a scenario to a temporary directory and assert that loading it
 * fails with a line `<file>: <field path>: …<fragment>…`. Call in a test file's top level (it
 * registers beforeAll/afterAll for the directory).
 */
export function scenarioProblems(prefix: string): {
  expectProblem: (content: unknown, fieldPath: string, fragment: string) => Promise<void>;
  directory: () => string;
} {
  let root = '';
  let counter = 0;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const expectProblem = async (content: unknown, fieldPath: string, fragment: string): Promise<void> => {
    const file = path.join(root, `scenario-${++counter}.yaml`);
    await writeFile(file, stringify(content));
    let lines: string[] = [];
    try {
      await loadScenarioFile(file);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      lines = (error as InputError).message.split('\n');
    }
    const start = `${file}: ${fieldPath}: `;
    expect(
      lines.find((line) => line.startsWith(start) && line.includes(fragment)),
      `no line starting ${JSON.stringify(start)} containing ${JSON.stringify(fragment)} in:\n${lines.join('\n')}`,
    ).toBeDefined();
  };
  return { expectProblem, directory: () => root };
}
