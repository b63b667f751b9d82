import path from 'node:path';

/**
 * A designer's path through the workbench on one rule system, as data for test/web/workbench.test.ts:
 * a bundled scenario opened, one field changed in the form and another in the YAML (each also
 * given as the CLI's `--set`), an edited copy to compare with (one field changed in its form,
 * given as the variant `set:` the CLI reads), and, where the system has a bundled roster, an edit
 * of that roster's YAML for the Matchups and Balance views. Paths relative to a file (data,
 * armies) are given absolute for the CLI's copies, written in the system's temp folder.
 */

export interface FormEdit {
  /** The field's id in the form (`a-…` the scenario, `b-…` the edited copy). */
  readonly field: string;
  /** A value to type, or a checkbox to untick. */
  readonly value: string | 'untick';
  /** The same change as `path=value` (crucible run --set). */
  readonly set: string;
}

export interface DesignerPath {
  readonly system: string;
  readonly scenario: string;
  /** Where the scenario's data lies, as the CLI's copy of it must name it: [field, absolute path]. */
  readonly dataField: readonly [string, string];
  readonly form: FormEdit;
  /** A text change in the YAML tab, and the same as --set. */
  readonly yaml: { readonly from: string; readonly to: string; readonly set: string };
  /** A variant to compare with: declared in the bundled file, or written at the end of the YAML (`text`). */
  readonly variant: { readonly name: string; readonly text?: string };
  /** The edited copy's change, and the variant `set:` it is to the CLI. */
  readonly copy: { readonly field: string; readonly value: string | 'untick'; readonly set: Record<string, unknown> };
  readonly roster?: {
    readonly file: string;
    /** The roster's relative data field and its absolute replacement, for the CLI's copy. */
    readonly dataField: readonly [string, string];
    readonly edit: (text: string) => string;
    /** Rosters fielded by count: the points a side. */
    readonly budget?: number;
    /** Whether the path goes on to the Balance view (Warmaster's is walked by the price-list test, on twelve entries). */
    readonly balance: boolean;
  };
}

/** Keep only the entries whose ids are named (one `- id:` block or one-line entry each), and raise one situation's weight. */
function trimmed(text: string, ids: readonly string[], situation: string, weight: number): string {
  const [head = '', entries = ''] = text.split(/^entries:\n/m);
  const blocks = entries.split(/^(?= {2}- )/m).filter((block) => ids.some((id) => new RegExp(`id: ${id}[,\\n]`).test(block)));
  const weighted = head.replace(new RegExp(`(  - name: ${situation}\\n)(    weight: \\d+\\n)?`), `$1    weight: ${weight}\n`);
  return `${weighted}entries:\n${blocks.join('')}`;
}

export const DESIGNER_PATHS: readonly DesignerPath[] = [
  {
    system: 'heroic',
    scenario: 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml',
    dataField: ['unitsFile', path.resolve('data/heroic/units.yaml')],
    form: { field: 'a-sides-1-groups-0-models', value: '4', set: 'sides[1].groups[0].models=4' },
    yaml: { from: 'rounds: 20', to: 'rounds: 12', set: 'rounds=12' },
    variant: { name: 'least-damaged' },
    copy: { field: 'b-sides-1-groups-0-formation', value: 'untick', set: { 'sides[1].groups[0].formation': false } },
    roster: {
      file: 'data/heroic/rosters/core.yaml',
      dataField: ['unitsFile: ../units.yaml', `unitsFile: ${path.resolve('data/heroic/units.yaml')}`],
      // The Goblin's cost edited from 5 to 7: the page must price the roster as edited.
      edit: (text) =>
        trimmed(text, ['sylvan-knight', 'goblin', 'orc-barbarian'], 'in formation', 3).replace(
          'name: Goblin, count: 12, cost: 5 }',
          'name: Goblin, count: 12, cost: 7 }',
        ),
      budget: 60,
      balance: true,
    },
  },
  {
    system: 'battleforge',
    scenario: 'data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml',
    dataField: ['data', path.resolve('data/battleforge')],
    form: { field: 'a-sides-0-units-0-models', value: '12', set: 'sides[0].units[0].models=12' },
    yaml: { from: 'distance: 18', to: 'distance: 12', set: 'distance=12' },
    variant: { name: 'point-blank', text: 'variants:\n  - name: point-blank\n    set: { distance: 4 }\n' },
    copy: { field: 'b-sides-1-units-0-models', value: '8', set: { 'sides[1].units[0].models': 8 } },
    roster: {
      file: 'data/battleforge/rosters/core-infantry.yaml',
      dataField: ['data: ..', `data: ${path.resolve('data/battleforge')}`],
      edit: (text) =>
        trimmed(
          text,
          ['human_kingdoms/militia', 'human_kingdoms/bowmen', 'orcs_and_goblins/orc_warriors'],
          'charge against a shooting line',
          3,
        ),
      budget: 100,
      balance: true,
    },
  },
  {
    system: 'warmaster',
    scenario: 'data/warmaster/scenarios/cavalry-charge-infantry-open.yaml',
    dataField: ['armies', path.resolve('data/warmaster/armies')],
    form: { field: 'a-sides-1-units-0-hits', value: '1', set: 'sides[1].units[0].hits=1' },
    yaml: {
      from: 'charging: true, contact: { front: 3 }',
      to: 'charging: true, contact: { front: 2 }',
      set: 'sides[0].units[0].contact.front=2',
    },
    variant: { name: 'one-stand', text: 'variants:\n  - name: one-stand\n    set: { "sides[0].units[0].contact.front": 1 }\n' },
    copy: { field: 'b-sides-0-units-0-charging', value: 'untick', set: { 'sides[0].units[0].charging': false } },
    roster: {
      file: 'data/warmaster/rosters/four-armies.yaml',
      dataField: ['armies: ../armies', `armies: ${path.resolve('data/warmaster/armies')}`],
      edit: (text) =>
        trimmed(
          text,
          ['empire/halberdiers', 'empire/knights', 'empire/crossbowmen', 'orcs/orc-warriors', 'orcs/goblins', 'orcs/trolls'],
          'charge a defended unit',
          3,
        ),
      balance: false,
    },
  },
  {
    system: 'epic',
    scenario: 'data/epic/scenarios/guard-company-under-fire.yaml',
    dataField: ['armies', path.resolve('data/epic/armies.yaml')],
    form: { field: 'a-turns', value: '3', set: 'turns=3' },
    yaml: { from: 'units: 7', to: 'units: 6', set: 'players[0].formations[0].units=6' },
    variant: { name: 'one-turn', text: 'variants:\n  - name: one-turn\n    set: { turns: 1 }\n' },
    copy: { field: 'b-players-0-formations-0-units', value: '5', set: { 'players[0].formations[0].units': 5 } },
  },
];
