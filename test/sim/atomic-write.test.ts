import type * as FileSystem from 'node:fs/promises';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeTextFile } from '../../analysis/tables.js';
import { STALE_AFTER_MILLISECONDS } from '../../sim/atomic-write.js';

/**
 * Output files (`--out` of sweep, compare, matchups and balance go through writeTextFile; part
 * files, checkpoints, reports and schemas through the same writeAtomically) are written whole or not
 * at all. A full disk is simulated the way it happens: the file is opened, part of the text goes
 * in, then the write fails with ENOSPC.
 */

const disk = vi.hoisted(() => ({ full: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FileSystem>();
  const noSpace = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const firstBytes = (content: unknown): string => String(content).slice(0, 4);
  const writeFileOnFullDisk = async (...args: Parameters<typeof fs.writeFile>): Promise<void> => {
    if (!disk.full) return fs.writeFile(...args);
    await fs.writeFile(args[0], firstBytes(args[1]));
    throw noSpace();
  };
  const openOnFullDisk = async (...args: Parameters<typeof fs.open>): Promise<FileSystem.FileHandle> => {
    const handle = await fs.open(...args);
    if (!disk.full) return handle;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'writeFile') {
          return async (content: unknown): Promise<void> => {
            await target.writeFile(firstBytes(content));
            throw noSpace();
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return { ...fs, writeFile: writeFileOnFullDisk, open: openOnFullDisk };
});

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-atomic-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('writing an output file', () => {
  it('on a full disk: exit-2 error naming the file, the previous file intact, no temporary file left', async () => {
    const out = path.join(directory, 'sweep.csv');
    await writeFile(out, 'previous,result\n');
    disk.full = true;
    try {
      await expect(writeTextFile(out, 'a,b\n1,2\n'.repeat(1000))).rejects.toThrow(/sweep\.csv: \(root\): cannot write: no space left on the device/);
    } finally {
      disk.full = false;
    }
    expect(await readFile(out, 'utf8')).toBe('previous,result\n');
    expect(await readdir(directory)).toEqual(['sweep.csv']);
  });

  it("deletes the stale temporary files of a killed writer of the same file, and nobody else's", async () => {
    const out = path.join(directory, 'report.md');
    // Pids above Linux's pid_max (2^22) belong to no process.
    const stale = ['report.md.crucible-9999991.tmp', 'report.md.9999992.tmp'];
    const kept = ['report.md.crucible-9999993.tmp', 'other.md.crucible-9999994.tmp', `report.md.crucible-${process.ppid}.tmp`];
    for (const name of [...stale, ...kept]) await writeFile(path.join(directory, name), 'half a fi');
    const old = (Date.now() - STALE_AFTER_MILLISECONDS - 60_000) / 1000;
    // The first of `kept` is recent (a write may still be in progress on another machine), the others are old.
    for (const name of [...stale, ...kept.slice(1)]) await utimes(path.join(directory, name), old, old);
    await writeTextFile(out, '# report\n');
    expect(await readFile(out, 'utf8')).toBe('# report\n');
    const left = await readdir(directory);
    for (const name of stale) expect(left).not.toContain(name);
    for (const name of kept) expect(left).toContain(name);
  });
});
