import { main } from '../../cli/main.js';

/** Output sinks for `main(args, io)`: what the CLI wrote to stdout and stderr, as text. */
export function capture(): {
  io: { stdout: (text: string) => void; stderr: (text: string) => void };
  output: () => { stdout: string; stderr: string };
} {
  let stdout = '';
  let stderr = '';
  return {
    io: {
      stdout: (text: string) => {
        stdout += text;
      },
      stderr: (text: string) => {
        stderr += text;
      },
    },
    output: () => ({ stdout, stderr }),
  };
}

/** What `crucible …` did: its exit status and what it printed. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `crucible <args>` in this process, through the `main(argv, io)` bin/crucible.js calls, its output
 * captured; `env` stands for the process environment (none by default, so no CRUCIBLE_DEBUG).
 */
export async function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const { io, output } = capture();
  const status = await main(args, io, env);
  return { status, ...output() };
}
