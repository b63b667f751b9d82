import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { appendListValues, listOption, spreadListValues } from '../../cli/list-options.js';
import { runCli } from '../helpers/capture.js';

/**
 * Options of several values (`--variant`, `--metric`, `--only`) never swallow a command's file
 * argument (issue 34): repeated or comma-separated, with the old spelling (values one after
 * another) kept once the command's required arguments are given.
 */

function compareLike(): Command {
  return new Command('compare')
    .argument('<scenario>')
    .addOption(listOption('--variant <name>', 'variants'))
    .addOption(listOption('--metric <name>', 'metrics'))
    .option('-n, --trials <count>')
    .option('--json');
}

describe('spreadListValues', () => {
  it('reads a word after a list option as the command argument while that is still missing', () => {
    expect(spreadListValues(compareLike(), ['--variant', 'hold', 's.yaml'])).toEqual(['--variant', 'hold', 's.yaml']);
    expect(spreadListValues(compareLike(), ['--metric', 'winner', 's.yaml', '--json'])).toEqual(['--metric', 'winner', 's.yaml', '--json']);
  });

  it('keeps the old spelling once the arguments are given: each further word is the option repeated', () => {
    expect(spreadListValues(compareLike(), ['s.yaml', '--variant', 'a', 'b', '-n', '5'])).toEqual([
      's.yaml',
      '--variant',
      'a',
      '--variant',
      'b',
      '-n',
      '5',
    ]);
    expect(spreadListValues(compareLike(), ['s.yaml', '--metric=a', 'b'])).toEqual(['s.yaml', '--metric=a', '--metric', 'b']);
  });

  it('leaves the values of other options and everything after -- alone', () => {
    expect(spreadListValues(compareLike(), ['-n', '5', 's.yaml', '--', '--variant', 'x'])).toEqual([
      '-n',
      '5',
      's.yaml',
      '--',
      '--variant',
      'x',
    ]);
  });

  it('splits commas and drops empty names', () => {
    expect(appendListValues('a, b,,c', ['z'])).toEqual(['z', 'a', 'b', 'c']);
  });
});

describe('the commands', () => {
  const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';

  it('compare takes --variant before the scenario, repeated, or comma-separated, and all three agree', async () => {
    const spellings = [
      ['compare', '--variant', 'least-damaged', HEROIC, '--variant', 'no-regeneration'],
      ['compare', HEROIC, '--variant', 'least-damaged,no-regeneration'],
      ['compare', HEROIC, '--variant', 'least-damaged', 'no-regeneration'],
    ];
    const outputs = await Promise.all(spellings.map((args) => runCli([...args, '-n', '300', '--metric', 'winner', '--json'])));
    for (const output of outputs) expect(output.status, output.stderr).toBe(0);
    expect(new Set(outputs.map((output) => output.stdout)).size).toBe(1);
  });
});
