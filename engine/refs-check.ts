import type { z } from 'zod';
import type { ValidationIssue } from './validation.js';

/**
 * For each rule system's `checkRefs` (engine/rule-system.ts): refs that did not come from this
 * machine's loader are parsed with their schema first, so the validators that follow read the
 * shapes they expect. A refusal is reported under `refs`, at most a few issues.
 */
const MAX_ISSUES = 5;

export function parsedRefs<Schema extends z.ZodType>(
  schema: Schema,
  refs: unknown,
): { value: z.output<Schema> } | { issues: ValidationIssue[] } {
  const parsed = schema.safeParse(refs);
  if (parsed.success) return { value: parsed.data };
  return {
    issues: parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
      path: ['refs', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
      message: issue.message,
    })),
  };
}
