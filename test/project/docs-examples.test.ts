import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeWorkspace, type DocExample, markerOf, openWorkspace, renderDoc } from '../../scripts/doc-outputs.js';
import { checkDocExamples, EXAMPLES } from '../../scripts/docs-examples.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The command outputs quoted in the README, the homebrew tutorial and docs/ are what the commands
 * print today, and so are the numbers the prose takes from them (the check of
 * `npm run check:docs:examples`, run in this process: every command with its fixed seed, ~8
 * CPU-seconds; the examples marked slow, seconds each, are left to that command).
 */

describe('the quoted command outputs (npm run check:docs:examples)', () => {
  it('are what the commands print, and the prose states their numbers', async () => {
    expect(process.cwd()).toBe(REPOSITORY);
    expect(await checkDocExamples(REPOSITORY, { quick: true })).toEqual([]);
    // The workspace under scratch/ is gone.
    expect((await readdir(path.join(REPOSITORY, 'scratch')).catch(() => [])).filter((name) => name.startsWith('docs-examples-'))).toEqual(
      [],
    );
  });

  it('cover the README, the tutorial and docs/, each block showing its command', () => {
    const docs = new Set(EXAMPLES.map((example) => example.doc));
    for (const doc of ['README.md', 'examples/homebrew/README.md', 'docs/plugins.md', 'docs/commands.md'])
      expect(docs.has(doc), doc).toBe(true);
    expect(new Set(EXAMPLES.map((example) => example.id)).size).toBe(EXAMPLES.length);
  });

  it('notice a stale block, a stale claim, a missing place and a marker without an example', async () => {
    const example: DocExample = {
      doc: 'test.md',
      id: 'validate',
      program: 'npx crucible',
      steps: [{ args: ['validate', 'examples/homebrew/scenarios/volley.yaml', '--plugin', 'examples/homebrew/index.ts'] }],
      claims: [{ pattern: /it says (\w+) for it/, value: ({ steps }) => (steps[0]?.stdout.startsWith('ok ') === true ? 'ok' : 'no') }],
    };
    const current = `# t\n\n${markerOf('validate')}\n\`\`\`text\n$ npx crucible validate examples/homebrew/scenarios/volley.yaml --plugin examples/homebrew/index.ts\nok examples/homebrew/scenarios/volley.yaml\n\`\`\`\n<!-- end generated -->\n\nit says ok for it\n`;
    const workspace = await openWorkspace();
    try {
      expect(await renderDoc('test.md', current, [example], workspace)).toEqual({ text: current, problems: [], changes: [] });
      const stale = current.replace('ok examples', 'fine examples').replace('says ok', 'says yes');
      expect(await renderDoc('test.md', stale, [example], workspace)).toEqual({
        text: current,
        problems: [],
        changes: [
          'test.md: validate: its block is not what the commands print',
          'test.md: validate: the prose says "yes", the output "ok"',
        ],
      });
      const missing = current.replace(markerOf('validate'), '');
      expect((await renderDoc('test.md', missing, [example], workspace)).problems).toEqual([
        expect.stringContaining('no place for the example validate'),
      ]);
      const unknown = `${current}\n${markerOf('other')}\n<!-- end generated -->\n`;
      expect((await renderDoc('test.md', unknown, [example], workspace)).problems).toEqual([expect.stringContaining('names no example')]);
    } finally {
      await closeWorkspace(workspace);
    }
  });
});
