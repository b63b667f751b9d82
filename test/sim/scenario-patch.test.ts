import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { setField } from '../../input/scenario-patch.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Field paths (`--set`, sweep axes, scenario variants) change one field of a copy of the scenario,
 * and nothing else: a path through `__proto__`, `constructor` or `prototype` would change every
 * object in the process (prototype pollution), so it is refused.
 */

describe('setField', () => {
  it('sets a field of a copy, creating a missing object on the way', () => {
    const data = { sides: [{ name: 'A' }], rules: undefined };
    const result = setField(data as never, 'options.reading', 'x');
    expect(result).toEqual({ data: { sides: [{ name: 'A' }], options: { reading: 'x' } } });
    expect(data).toEqual({ sides: [{ name: 'A' }], rules: undefined });
  });

  it.each(['__proto__.polluted', 'constructor.prototype.polluted', 'sides[0].__proto__.polluted', 'options.constructor'])(
    'refuses %s and leaves every object alone',
    (field) => {
      const result = setField({ sides: [{ name: 'A' }] }, field, 'yes');
      expect(result).toHaveProperty('problem');
      expect(String((result as { problem: string }).problem)).toMatch(/is not a field a scenario can have/);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    },
  );

  it('never follows an inherited field: it makes an own one (which the schema then refuses as unknown)', () => {
    const result = setField({ sides: [] }, 'toString.x', 1) as { data: Record<string, unknown> };
    expect(Object.hasOwn(result.data, 'toString')).toBe(true);
    expect(result.data.toString).toEqual({ x: 1 });
    expect(typeof Object.prototype.toString).toBe('function');
  });

  it('the CLI refuses such a path with exit 2, naming the file and field', async () => {
    const scenario = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
    const sweep = await runCli(['sweep', scenario, '--set', '__proto__.polluted=1,2', '-n', '10']);
    expect(sweep.status).toBe(2);
    expect(sweep.stderr).toContain(`${scenario}: (root): __proto__.polluted: "__proto__" is not a field a scenario can have`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('one message per problem', () => {
  it('a number above both the schema maximum and 2^53 is told the tighter limit only', async () => {
    const { describeZodIssues } = await import('../../input/zod-issues.js');
    const { z } = await import('zod');
    const schema = z.object({ trials: z.number().int().min(1).max(1e12) });
    const result = schema.safeParse({ trials: 1e18 });
    if (result.success) throw new Error('expected a failure');
    const messages = describeZodIssues(result.error.issues, { trials: 1e18 }, schema).map((issue) => issue.message);
    expect(messages).toEqual(['must be an integer ≤ 1000000000000, got 1000000000000000000']);
  });

  it('--checkpoint "" is refused as an empty file name', async () => {
    const scenario = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
    const result = await runCli(['run', scenario, '-n', '10', '--checkpoint', '']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--checkpoint needs a file name, got an empty one.');
  });
});
