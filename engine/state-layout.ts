/**
 * A kernel's per-trial state as named Int32Array views over one buffer, so a trial resets it all
 * with one `set` from a template (design: struct-of-arrays, reset per trial by one copy). Fields are
 * declared once, by name and length; the buffer is sized from them, so there is no hand-counted
 * field total to keep in step.
 *
 * @example
 * const layout = new StateLayout({ stands: units, hits: units, target: groups });
 * layout.views.stands[0] = 3;   // write the starting state…
 * const template = layout.snapshot();
 * layout.reset(template);       // …and restore it at the start of every trial
 */
export class StateLayout<Name extends string> {
  /** The whole state, every field's view lying inside it. */
  readonly buffer: Int32Array;
  readonly views: { readonly [Field in Name]: Int32Array };

  constructor(lengths: { readonly [Field in Name]: number }) {
    const fields = Object.entries(lengths) as [Name, number][];
    for (const [name, length] of fields) {
      if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`state field ${name}: length ${length} is not a count`);
    }
    this.buffer = new Int32Array(fields.reduce((total, [, length]) => total + length, 0));
    const views = {} as { [Field in Name]: Int32Array };
    let offset = 0;
    for (const [name, length] of fields) {
      views[name] = this.buffer.subarray(offset, offset + length);
      offset += length;
    }
    this.views = views;
  }

  /** A copy of the state as it is now: the template `reset` restores. */
  snapshot(): Int32Array {
    return this.buffer.slice();
  }

  /** Restore the state from a snapshot (one typed-array copy, no allocation). */
  reset(template: Int32Array): void {
    this.buffer.set(template);
  }
}
