import { type Command, Option } from 'commander';
import { matchupsDocument } from '../../documents/matchups-document.js';
import { MATCHUP_LAYOUTS, type MatchupLayout, matchupTable, MEASURES, type Measure, runsOf } from '../../documents/matchup-tables.js';
import { matchups, SEATINGS, type Seating } from '../../analysis/matchups.js';
import { checkRoster, loadRoster } from '../../input/roster.js';
import { loadScenarioData } from '../../input/scenario-file.js';
import { printDocument } from '../../documents/table-model.js';
import { groupThousands } from '../../input/thousands.js';
import type { Io } from './io.js';
import { type Common, common, inSession, sessionOf, withPool, writeReport } from './analysis-common.js';
import { parsePrecision, parseTrials } from './options.js';
import { trustOf } from './plugins.js';
import { fileSystemData } from '../../input/data-file.js';
import { checkOut, writeOut } from './table-out.js';
import { listOption } from '../list-options.js';

/** `crucible matchups`: every entry of a roster against every entry, in both seatings. */
export function registerMatchups(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  common(
    program
      .command('matchups')
      .description(
        "every unit of a roster against every unit, in both seats of the template: the row unit's expected score (win + ½ draw) in a matrix ready to print",
      )
      .argument('<roster>', 'a roster file (entries and the scenario template they fight in; - for standard input)')
      .addOption(listOption('--only <id>', 'only these entries'))
      .addOption(
        new Option(
          '--seating <seating>',
          "both: each pairing with the row unit in the template's first side and in its second, equal trials (fair); first or second: one seat",
        )
          .choices([...SEATINGS])
          .default('both'),
      )
      .addOption(
        new Option('--show <measure>', 'what the matrix shows: expected score (win + ½ draw), or P(win), P(draw), P(loss)')
          .choices([...MEASURES])
          .default('score'),
      )
      .addOption(
        new Option(
          '--layout <layout>',
          'wide: the matrix (a row per unit, a column per opponent); long: a row per pairing, situation and seating (W/D/L, the score and its interval, trials, seed)',
        )
          .choices([...MATCHUP_LAYOUTS])
          .default('wide'),
      )
      .addOption(new Option('--long', 'the same as --layout long').conflicts('layout'))
      .option('--json', 'print the whole result as JSON (every number at full precision; `crucible report` reads it)')
      .option('--report <dir>', 'also write an HTML page (heatmap with W/D/L on hover, tables, provenance) into this folder')
      .addOption(
        new Option(
          '-p, --precision <e>',
          'run each seating the trials that bound every expected score within ±e (default 0.01: 4,802 per seating with both)',
        )
          .argParser(parsePrecision)
          .conflicts('trials'),
      )
      .addOption(
        new Option(
          '--adaptive',
          "stop each seating once its own score is within the precision (a lopsided pairing needs fewer trials than the worst case); this machine's workers only",
        ).conflicts(['trials', 'queue']),
      )
      .addOption(new Option('-n, --trials <count>', 'instead of --precision: trials per seating of each pairing').argParser(parseTrials)),
  ).action(
    async (
      file: string,
      options: Common & {
        only?: string[];
        precision?: number;
        adaptive?: boolean;
        seating: Seating;
        show: Measure;
        layout: MatchupLayout;
        long?: boolean;
        report?: string;
      },
    ) => {
      const trusted = { plugins: trustOf(options) };
      const roster = await loadRoster(file, trusted);
      // Every entry checked in the template before any run: a typo fails at once, not after an hour.
      await checkRoster(roster, (at, data) => loadScenarioData(at, data, fileSystemData, trusted));
      checkOut(options);
      const started = Date.now();
      const session = sessionOf(io, env, options, { command: 'matchups', file, unit: 'runs' });
      const outcome = await inSession(session, () =>
        withPool(options, io.stderr, session, (pool) =>
          matchups(roster, {
            executor: pool,
            seating: options.seating,
            onRun: session.progress,
            ...(options.only === undefined ? {} : { only: options.only }),
            ...(options.seed === undefined ? {} : { seed: options.seed }),
            ...(options.adaptive === true ? { adaptive: true } : {}),
            ...(options.trials === undefined ? { precision: options.precision ?? 0.01 } : { trials: options.trials }),
          }),
        ),
      );
      if ('status' in outcome) {
        setStatus(outcome.status);
        return;
      }
      const result = outcome.result;
      const document = matchupsDocument(result);
      const runs = runsOf(result);
      const table = matchupTable(result, options.show, options.long === true ? 'long' : options.layout);
      const printed = {
        title: table.title,
        lead: [
          `  file ${file} · ${result.entries.length} entries · ${runs} runs of ${result.adaptive === true ? 'up to ' : ''}${groupThousands(result.trialsPerSeat)} trials (${groupThousands(result.trialsInAll)} in all) · seed ${result.seed} · engine ${result.engineVersion}`,
        ],
        tables: [table],
        data: table,
      };
      const toStdout = await writeOut(options, printed, io);
      if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report, options.show)}\n`);
      if (!toStdout) io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : printDocument(printed, 'text'));
      // Timings vary from run to run: stderr only, and left out as run leaves its out (--quiet, --json).
      if (options.quiet !== true && options.json !== true)
        io.stderr(`${runsOf(result)} runs in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    },
  );
}
