/** What a command may touch of its process: the CLI stays testable in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The user's working directory; paths in messages are shown relative to it. */
  readonly cwd: string;
  /** Whether stdout is a terminal that shows colour (not when NO_COLOR is set). */
  readonly color: boolean;
  /** Whether stderr is a terminal a progress bar may redraw (never in CI), and its width. */
  readonly progress: { readonly interactive: boolean; readonly columns: number };
}
