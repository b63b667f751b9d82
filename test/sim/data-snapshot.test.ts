import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { DataFiles } from '../../engine/rule-system.js';
import { fileSystemData } from '../../input/data-file.js';
import { snapshotDataFiles } from '../../input/data-snapshot.js';

/** One analysis's snapshot of the data files: each read, check and listing done once, checked values frozen. */

let folder: string;
const listSchema = z.strictObject({ units: z.array(z.strictObject({ id: z.string(), attacks: z.number() })) });

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'crucible-snapshot-'));
  await writeFile(path.join(folder, 'army.yaml'), 'units:\n  - { id: knights, attacks: 3 }\n');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** fileSystemData, counting what it is asked. */
function counted(): { files: DataFiles; calls: Record<'read' | 'readChecked' | 'list', number> } {
  const calls = { read: 0, readChecked: 0, list: 0 };
  const files: DataFiles = {
    ...fileSystemData,
    read: (file) => (calls.read++, fileSystemData.read(file)),
    readChecked: (file, schema) => (calls.readChecked++, fileSystemData.readChecked(file, schema)),
    list: (directory) => (calls.list++, fileSystemData.list(directory)),
  };
  return { files, calls };
}

describe('snapshotDataFiles', () => {
  it('reads, checks and lists each file or folder once, however many loads ask, even at the same time', async () => {
    const { files, calls } = counted();
    const snapshot = snapshotDataFiles(files);
    const file = path.join(folder, 'army.yaml');
    const checked = await Promise.all(Array.from({ length: 5 }, () => snapshot.readChecked(file, listSchema)));
    for (let i = 0; i < 3; i++) await snapshot.read(file);
    for (let i = 0; i < 3; i++) expect(await snapshot.list(folder)).toEqual(['army.yaml']);
    expect(calls).toEqual({ read: 1, readChecked: 1, list: 1 });
    expect(checked[0]?.value).toEqual({ units: [{ id: 'knights', attacks: 3 }] });
    expect(new Set(checked.map((result) => result.value)).size).toBe(1);
  });

  it('keeps the data it first read for the whole analysis, even when the file changes', async () => {
    const snapshot = snapshotDataFiles();
    const file = path.join(folder, 'changing.yaml');
    await writeFile(file, 'units:\n  - { id: a, attacks: 1 }\n');
    expect((await snapshot.readChecked(file, listSchema)).value?.units[0]?.attacks).toBe(1);
    await writeFile(file, 'units:\n  - { id: a, attacks: 9 }\n');
    expect((await snapshot.readChecked(file, listSchema)).value?.units[0]?.attacks).toBe(1);
    // A new snapshot (the next analysis) sees the change.
    expect((await snapshotDataFiles().readChecked(file, listSchema)).value?.units[0]?.attacks).toBe(9);
  });

  it('freezes checked values, shared by every load, and gives each reader of plain data its own copy', async () => {
    const snapshot = snapshotDataFiles();
    const file = path.join(folder, 'army.yaml');
    const { value } = await snapshot.readChecked(file, listSchema);
    const unit = value?.units[0] as { attacks: number };
    expect(() => {
      unit.attacks = 4;
    }).toThrow(TypeError);
    const first = await snapshot.read(file);
    const second = await snapshot.read(file);
    if (!first.ok || !second.ok) throw new Error('the file did not parse');
    (first.data as { units: { attacks: number }[] }).units[0]!.attacks = 7;
    expect((second.data as { units: { attacks: number }[] }).units[0]?.attacks).toBe(3);
  });

  it('remembers a file that has problems, with its problems', async () => {
    const snapshot = snapshotDataFiles();
    const file = path.join(folder, 'missing.yaml');
    const [first, again] = [await snapshot.readChecked(file, listSchema), await snapshot.readChecked(file, listSchema)];
    expect(first.value).toBeUndefined();
    expect(first.problems[0]?.file).toBe(file);
    expect(again).toBe(first);
  });
});
