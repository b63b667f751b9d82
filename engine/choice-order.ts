/** Made on first use: a collator costs about 7 ms of CPU to build, which a run (that offers no choices) need not pay. */
let collator: Intl.Collator | undefined;

/**
 * The order a rule system's field choices (RuleSystem.choices) are offered in: by name as a reader
 * sorts them, case and accents aside, numbers by value ("Unit 2" before "Unit 10").
 */
export const compareChoiceText = (a: string, b: string): number =>
  (collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true })).compare(a, b);
