import { describe, expect, it } from 'vitest';
import { MAX_DATA_FILE_BYTES } from '../../input/data-file.js';
import { decodeSetup, encodeSetup, MAX_LINK_CHARACTERS, MAX_SETUP_BYTES, type Setup } from '../../web/app/share.js';

/**
 * A shared link is someone else's data: bounded before and after it is inflated, and each of its
 * fields checked as the CLI checks the option it stands for. Decoded here in Node (the same
 * CompressionStream the page uses), so the bounds are tested without a browser.
 */

const SCENARIO = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const base: Setup = {
  file: SCENARIO,
  text: 'ruleset: heroic\n',
  view: 'balance',
  method: 'mc',
  seed: 7,
  trials: 5000,
  precision: 0.05,
  budget: 60,
  tolerance: '5%',
};

/** A fragment carrying `value` as JSON, whatever it is (a link a stranger made by hand). */
const linkOf = (value: unknown): Promise<string> => encodeSetup(value as Setup);

describe('a shared link', () => {
  it('round-trips a setup field for field', async () => {
    const decoded = await decodeSetup(await encodeSetup(base));
    expect(decoded).toEqual({ setup: base, problems: [] });
  });

  it('leaves out each field the CLI would refuse, saying which and why, and keeps the rest', async () => {
    const { setup, problems } = await decodeSetup(
      await linkOf({
        ...base,
        seed: 'abc',
        trials: 10.5,
        precision: 1e-9,
        budget: -3,
        tolerance: 'lots',
        view: 'nowhere',
        method: 'magic',
        trial: -1,
      }),
    );
    expect(setup).toEqual({ file: SCENARIO, text: base.text, view: 'odds', method: 'auto' });
    expect(problems).toHaveLength(8);
    expect(problems).toContain(
      'this link\'s trials was left out: Trials must be a whole number from 1 to 1e12 (e.g. 100000, 100_000 or 1e6), got "10.5".',
    );
    expect(problems).toContain('this link\'s seed was left out: The seed must be a number, got "abc".');
    // The CLI's ranges, not only the types: seed 5e9 and 2e12 trials are refused as crucible run refuses them.
    const out = await decodeSetup(await linkOf({ ...base, seed: 5e9, trials: 2e12, trials0: 1 }));
    expect(out.setup?.seed).toBeUndefined();
    expect(out.setup?.trials).toBeUndefined();
    expect(out.problems.join('\n')).toMatch(/seed was left out: The seed must be a whole number from 0 to 4294967295, got "5000000000"/);
    expect(out.problems.join('\n')).toMatch(/trials was left out: Trials must be a whole number from 1 to 1e12/);
    expect(out.setup).not.toHaveProperty('trials0');
  });

  it('refuses a scenario path outside a scenarios folder, and imported files anywhere but beside the scenario', async () => {
    for (const file of [
      'data/heroic/units.yaml',
      '../../etc/passwd.yaml',
      '/data/heroic/scenarios/x.yaml',
      'data/heroic/scenarios/../units.yaml',
    ]) {
      expect((await decodeSetup(await linkOf({ ...base, file }))).setup, file).toBeUndefined();
    }
    const beside = { 'data/heroic/scenarios/my-units.yaml': 'units: []\n' };
    expect((await decodeSetup(await linkOf({ ...base, files: beside }))).setup?.files).toEqual(beside);
    const shadowing = await decodeSetup(await linkOf({ ...base, files: { 'data/heroic/units.yaml': 'units: []\n' } }));
    expect(shadowing.setup?.files).toBeUndefined();
    expect(shadowing.problems[0]).toMatch(/imported files was left out/);
  });

  it('is refused, quickly, when it would inflate beyond the bound: a few KB of link cannot become gigabytes', async () => {
    // 16 MB of one repeated letter deflates to ~16 KB: the decoder must stop at the bound, not inflate it all.
    const bomb = await linkOf({ ...base, name: 'a'.repeat(16 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(MAX_LINK_CHARACTERS);
    const started = performance.now();
    const decoded = await decodeSetup(bomb);
    const seconds = (performance.now() - started) / 1000;
    expect(decoded.setup).toBeUndefined();
    expect(decoded.problems).toEqual([
      `this link unpacks to more than ${MAX_SETUP_BYTES / 1024 / 1024} MB: no workbench setup is that large`,
    ]);
    // Generous for a loaded machine; unbounded, the page inflated, parsed and drew all of it (a 20 MB name froze a tab for 20 s).
    expect(seconds).toBeLessThan(2);
  });

  it('refuses a link longer than the bound before decoding it, and a scenario text larger than crucible reads from a file', async () => {
    expect((await decodeSetup(`#v1.${'A'.repeat(MAX_LINK_CHARACTERS)}`)).problems[0]).toMatch(/^this link is longer than 512 KB/);
    const large = await decodeSetup(await linkOf({ ...base, text: `# ${'x'.repeat(MAX_DATA_FILE_BYTES)}` }));
    expect(large.setup).toBeUndefined();
    expect(large.problems[0]).toMatch(/larger than 2 MB/);
  });

  it('says what is wrong with a cut, foreign or damaged link', async () => {
    const link = await encodeSetup(base);
    expect((await decodeSetup(link.slice(0, link.length - 12))).problems).toEqual(['this link is damaged (cut short when copied?)']);
    expect((await decodeSetup('#v9.abc')).problems[0]).toMatch(/another version of the workbench \(format 9\)/);
    expect((await decodeSetup('#section-2')).problems).toEqual(['this link does not hold a workbench setup']);
    expect(await decodeSetup('')).toEqual({ problems: [] });
  });
});
