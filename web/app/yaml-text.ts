import { isMap, isSeq, parse, parseDocument, stringify } from 'yaml';
import { fieldChanges } from './changes.js';

/**
 * The scenario's YAML text changed field by field: a form edit rewrites only the fields it
 * changed, so the file's comments, order and layout survive (exporting stays a faithful copy).
 */

export function dataOf(text: string): { data?: unknown; problem?: string } {
  try {
    return { data: parse(text) as unknown };
  } catch (error) {
    return { problem: error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error) };
  }
}

export function withData(text: string, data: unknown): string {
  const document = parseDocument(text);
  if (document.errors.length > 0 || !isMap(document.contents)) return stringify(data);
  for (const change of fieldChanges(document.toJS() as unknown, data)) {
    if (change.path.length === 0) return stringify(data);
    if (change.value === undefined) document.deleteIn(change.path);
    else document.setIn(change.path, document.createNode(change.value));
  }
  return document.toString();
}

/** The text with one more entry in its `variants:` list (the name replacing any of that name). */
export function withVariant(text: string, name: string, set: Record<string, unknown>): string {
  const document = parseDocument(text);
  const variants = document.get('variants');
  const entry = document.createNode({ name, description: 'the edited copy (workbench)', set });
  if (!isSeq(variants)) {
    document.set('variants', document.createNode([entry]));
    return document.toString();
  }
  variants.items = variants.items.filter((item) => !(isMap(item) && item.get('name') === name));
  variants.items.push(entry);
  return document.toString();
}
