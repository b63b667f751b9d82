import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `-` for standard input where a command reads a file, and for standard output where it writes one
 * (issue 34): `crucible run s.yaml --json | crucible report -` works, a scenario from standard input
 * reads its data relative to the current directory, and `--out -` prints the table in place of the
 * printout.
 */

const binary = path.join(REPOSITORY, 'bin', 'crucible.js');
const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';

const folder = mkdtemp(path.join(tmpdir(), 'crucible-stdin-'));
afterAll(async () => rm(await folder, { recursive: true, force: true }));

/** `crucible <args>` as its own process, `input` on its standard input. */
function crucible(args: readonly string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binary, ...args], { cwd: REPOSITORY, env: { ...process.env, CRUCIBLE_DEBUG: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('standard input', () => {
  it('run --json | report -: the page of the results piped in', async () => {
    const run = await runCli(['run', HEROIC, '-n', '2000', '-w', '0', '--json', '--quiet']);
    expect(run.status).toBe(0);
    const out = path.join(await folder, 'pages');
    const reported = await crucible(['report', '-', '--out', out, '--slug', 'piped'], run.stdout);
    expect(reported.stderr).toBe('');
    expect(reported.status).toBe(0);
    expect(reported.stdout).toBe(`wrote ${path.join(out, 'piped.html')} (index: ${path.join(out, 'index.html')})\n`);
    expect(await readFile(path.join(out, 'piped.html'), 'utf8')).toContain('Built by crucible report from -.');
  });

  it('a scenario from standard input runs as the file does, its data read from the current directory', async () => {
    const text = await readFile(path.join(REPOSITORY, HEROIC), 'utf8');
    // The bundled scenario's units file is ../units.yaml: from the repository's folder, nothing is there, so the bundled units are read (as for any scenario outside data/).
    const piped = await crucible(['run', '-', '-n', '2000', '-w', '0', '--quiet'], text);
    expect(piped.stderr).toBe('');
    const asFile = await runCli(['run', HEROIC, '-n', '2000', '-w', '0', '--quiet']);
    const body = (output: string): string => output.slice(output.indexOf('  method'));
    expect(body(piped.stdout)).toBe(body(asFile.stdout));
    expect(piped.stdout).toContain('  file     -\n');
    const validated = await crucible(['validate', '-'], text);
    expect(validated.stdout).toBe('ok -\n');
  });

  it('a part file from standard input merges with the others', async () => {
    const parts = path.join(await folder, 'part-1.json');
    const common = ['run', HEROIC, '-n', '100000', '-w', '0', '--quiet'];
    const first = await runCli([...common, '--shards', '0/2', '--out', '-']);
    expect(first.stderr).toContain('wrote the part to standard output: shard 0 of 2');
    expect((await runCli([...common, '--shards', '1/2', '--out', parts])).status).toBe(0);
    const merged = await crucible(['merge', '-', parts], first.stdout);
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toBe((await runCli(common)).stdout);
  });
});

describe('--out -', () => {
  it('prints the table as CSV (or --out-format) in place of the printout; with --json it is refused', async () => {
    const csv = await runCli(['run', HEROIC, '-n', '2000', '-w', '0', '--quiet', '--out', '-']);
    expect(csv.stdout.split('\n')[0]).toBe('metric,outcome,measure,estimate,estimate low,estimate high');
    const md = await runCli(['compare', HEROIC, '--variant', 'least-damaged', '-n', '300', '--out', '-', '--out-format', 'md']);
    expect(md.stdout).toMatch(/^\*\*A regenerating Ogre/);
    const both = await runCli(['compare', HEROIC, '--variant', 'least-damaged', '-n', '300', '--out', '-', '--json']);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('-: --out: --json prints its document to standard output: write the table to a file, or leave out --json\n');
  });
});
