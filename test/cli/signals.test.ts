import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGAGEMENT_FILE } from '../helpers/sharded.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Signals always work (issue 17 item 3): three Ctrl-Cs end a long run at once, whatever it is
 * doing — the third does not wait for shards in flight or a checkpoint. Every compile is bounded
 * (engine/validation.ts: dice per action, groups per side), so the main thread is never busy long
 * enough to hold a signal back.
 */

const binary = path.join(REPOSITORY, 'bin', 'crucible.js');

describe('three Ctrl-Cs', () => {
  it('end a long run within a second, exit 130 (or by the signal itself while still loading)', async () => {
    const child = spawn(process.execPath, [binary, 'run', ENGAGEMENT_FILE, '--trials', '100000000', '--workers', '2', '--quiet'], {
      cwd: REPOSITORY,
      env: { ...process.env, CRUCIBLE_DEBUG: '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<string>((resolve) =>
      child.on('exit', (code, signal) => resolve(code === null ? String(signal) : String(code))),
    );
    // Let it start its workers and its first shards.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sent = performance.now();
    for (let i = 0; i < 3; i++) {
      child.kill('SIGINT');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const code = await exited;
    // 130 from crucible's own handler once the run is under way; before it (still loading) the
    // default action ends the process by the signal itself — the shell shows 130 for both.
    expect(['130', 'SIGINT'], stderr).toContain(code);
    expect(performance.now() - sent).toBeLessThan(1000);
    expect(stderr).not.toMatch(/^ {4}at /m);
  });
});

/**
 * Every long command handles Ctrl-C and SIGTERM as run does (issue 34): it stops starting work,
 * says in one line what was done and that an analysis keeps nothing, and exits 130 (143). The
 * command draws its progress on stderr (CRUCIBLE_TEST_PROGRESS=1: as if on a terminal), so the test
 * signals once it has begun; its shards stall (CRUCIBLE_TEST_FAULT) or are many, so it cannot end first.
 */
describe('Ctrl-C and SIGTERM in the analyses', () => {
  const ROSTER = 'data/heroic/rosters/core.yaml';
  const STALL = { CRUCIBLE_TEST_FAULT: 'stall:0' };
  const cases: readonly { command: string; args: string[]; env: Record<string, string>; signal: NodeJS.Signals; line: RegExp }[] = [
    {
      command: 'compare',
      args: ['compare', ENGAGEMENT_FILE, '--variant', 'least-damaged', '-n', '1e9'],
      env: {},
      signal: 'SIGINT',
      line: /crucible: compare interrupted after [\d,]+ of 1,000,000,000 trials; nothing saved \(compare keeps no partial result\)$/m,
    },
    {
      command: 'sweep',
      args: ['sweep', ENGAGEMENT_FILE, '--set', 'rules.shieldSave=4,5,6', '-n', '100000', '-w', '1'],
      env: STALL,
      signal: 'SIGTERM',
      line: /crucible: sweep interrupted after 0 points; nothing saved \(sweep keeps no partial result\)$/m,
    },
    {
      command: 'matchups',
      args: ['matchups', ROSTER, '--only', 'sylvan-knight,goblin', '-n', '100', '-w', '1'],
      env: STALL,
      signal: 'SIGINT',
      line: /crucible: matchups interrupted after 0 runs; nothing saved \(matchups keeps no partial result\)$/m,
    },
    {
      command: 'balance',
      args: ['balance', '--against', ROSTER, '--budget', '60', '-w', '1'],
      env: STALL,
      signal: 'SIGINT',
      line: /crucible: balance interrupted after 0 runs; nothing saved \(balance keeps no partial result\)$/m,
    },
  ];

  it.each(cases)(
    '$command: $signal once it has begun → one line, exit 130 (143 for SIGTERM), nothing on stdout',
    async (entry) => {
      const child = spawn(process.execPath, [binary, ...entry.args], {
        cwd: REPOSITORY,
        env: { ...process.env, CRUCIBLE_DEBUG: '', CRUCIBLE_TEST_PROGRESS: '1', ...entry.env },
      });
      let stdout = '';
      let stderr = '';
      let begun: () => void = () => {};
      const started = new Promise<void>((resolve) => {
        begun = resolve;
      });
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // The progress display's first drawing: the command is under way, its handler listening.
        if (/ (trials|points|runs)\b/.test(stderr)) begun();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await Promise.race([started, exited]);
      child.kill(entry.signal);
      const code = await exited;
      expect(code, stderr).toBe(entry.signal === 'SIGTERM' ? 143 : 130);
      // After the display, cleared (its control sequences: cursor moves, line clears), the line.
      expect(stderr.replace(/\u001b(\[[\d;?]*[A-Za-z]|[78])/g, '')).toMatch(entry.line);
      expect(stderr).not.toMatch(/^ {4}at /m);
      expect(stdout).toBe('');
    },
    30_000,
  );
});
