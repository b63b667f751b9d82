import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { capture } from '../helpers/capture.js';
import { ENGAGEMENT_FILE } from '../helpers/sharded.js';

/**
 * One progress style for every command (issue 34): run's bar — `file [bar] n% | done/planned unit |
 * rate unit/s | time left` — drawn by compare, sweep, matchups and balance too, on the terminal
 * stream only, and never with --quiet or --json.
 */

/** A stream that says it is a terminal, as process.stderr does on a console. */
function fakeTerminal(): { stream: NodeJS.WritableStream; written: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let written = '';
  stream.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  return { stream, written: () => written };
}

const BAR = (unit: string): RegExp =>
  new RegExp(
    `knights-vs-regenerating-ogre\\.yaml \\[[=-]+\\] \\d+% \\| [\\d,.M]+/[\\d,.M]+ ${unit} \\| [\\d,.M?]+ ${unit}/s \\| \\S+( \\S+)? left`,
  );

describe('the progress display', () => {
  it.each([
    ['run', ['run', ENGAGEMENT_FILE, '-n', '200000', '-w', '0'], 'trials'],
    ['compare', ['compare', ENGAGEMENT_FILE, '--variant', 'least-damaged', '-n', '200000'], 'trials'],
    ['sweep', ['sweep', ENGAGEMENT_FILE, '--set', 'rules.shieldSave=5,6', '-n', '2000', '-w', '0'], 'points'],
  ])('%s draws the same bar on the terminal stream, and nothing with --quiet or --json', async (_name, args, unit) => {
    const terminal = fakeTerminal();
    const output = capture();
    expect(await main(args, { ...output.io, progressStream: terminal.stream }, {})).toBe(0);
    expect(terminal.written()).toMatch(BAR(unit));
    expect(output.output().stdout).not.toMatch(/\[[=-]+\]|\r/);
    for (const flag of ['--quiet', '--json']) {
      const silent = fakeTerminal();
      expect(await main([...args, flag], { ...capture().io, progressStream: silent.stream }, {})).toBe(0);
      expect(silent.written()).toBe('');
    }
  });
});
