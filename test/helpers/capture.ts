/** Output sinks for `main(args, io)`: what the CLI wrote to stdout and stderr, as text. */
export function capture(): { io: { stdout: (text: string) => void; stderr: (text: string) => void }; output: () => { stdout: string; stderr: string } } {
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
