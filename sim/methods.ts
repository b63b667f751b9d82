import { DEFAULT_DRAW_METHOD, type DrawMethod } from '../engine/kernel.js';
import { AUTO_BUDGET, EXACT_BUDGET, type ExactBudget } from './exact.js';

/**
 * How a run answers, by the names every face shows (`--method`, the workbench's menu, links,
 * documents): `exact` enumerates every path of one trial (sim/exact.ts); `mc` and `mc-dice` are
 * Monte Carlo, drawing each action's outcome whole from its exact table or rolling every die (the
 * kernel's DrawMethod); `auto` is exact when that is cheap and Monte Carlo otherwise (`exactBudgetFor`).
 * The one list of these names, their words and the auto rule: everything else derives from here.
 */
export const METHODS = ['auto', 'exact', 'mc', 'mc-dice'] as const;
export type Method = (typeof METHODS)[number];

/** The Monte Carlo methods (compare and replay take only these). */
export const MONTE_CARLO_METHODS = ['mc', 'mc-dice'] as const;
export type MonteCarloMethod = (typeof MONTE_CARLO_METHODS)[number];

/** How a result was answered, as every result and document records it: never `auto`. */
export const ANSWER_METHODS = ['exact', ...MONTE_CARLO_METHODS] as const;
export type AnswerMethod = (typeof ANSWER_METHODS)[number];

/** The kernel's draw method for a method: `mc-dice` rolls every die; `mc` draws from tables, and `exact` enumerates a kernel that does (sim/exact.ts). */
export const drawMethodOf = (method: AnswerMethod): DrawMethod => (method === 'mc-dice' ? 'dice' : 'tables');
export const monteCarloMethodOf = (draw: DrawMethod): MonteCarloMethod => (draw === 'tables' ? 'mc' : 'mc-dice');
/** What Monte Carlo draws with unless told: the one default (engine/kernel.ts), by its name. */
export const DEFAULT_MONTE_CARLO: MonteCarloMethod = monteCarloMethodOf(DEFAULT_DRAW_METHOD);

/** The Monte Carlo a method runs when it samples: `mc-dice` rolls every die, the others draw as DEFAULT_MONTE_CARLO. */
export const monteCarloOf = (method: Method): MonteCarloMethod => (method === 'mc-dice' ? 'mc-dice' : DEFAULT_MONTE_CARLO);

/** Each method in a few words, as the menus, help texts and report headers say it. */
export const METHOD_WORDS: Readonly<Record<Method, string>> = {
  auto: 'exact when a trial is one action, else Monte Carlo',
  exact: 'every outcome enumerated',
  mc: 'outcomes drawn from exact tables',
  'mc-dice': 'every die rolled',
};

/** A Monte Carlo method in words, as every command's header says it: "Monte Carlo (every die rolled)". */
export const methodText = (method: MonteCarloMethod): string => `Monte Carlo (${METHOD_WORDS[method]})`;

/**
 * The auto rule, and `exact`'s budget: the paths and draws to try enumerating a trial within before
 * sampling instead (`exact` refuses beyond EXACT_BUDGET), or undefined when the run samples at once —
 * a Monte Carlo method, or `auto` when something only sampling has was asked for (trials, a
 * precision or score stop, a checkpoint, a part of the run). So `auto` answers a single action
 * (an attack, a round, a volley, a rally: within AUTO_BUDGET) exactly, and anything longer by
 * DEFAULT_MONTE_CARLO.
 */
export function exactBudgetFor(method: Method, samplingAsked: boolean): ExactBudget | undefined {
  if (method === 'exact') return EXACT_BUDGET;
  return method === 'auto' && !samplingAsked ? AUTO_BUDGET : undefined;
}
