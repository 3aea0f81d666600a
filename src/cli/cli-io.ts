import { escapeControls } from '../report/plain-text.js';

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
  /**
   * Asks the person at the terminal and resolves to their answer; absent unless stdin and
   * stdout are terminals, so a run without one never waits for an answer that cannot come.
   */
  readonly ask?: (question: string) => Promise<string>;
  /**
   * The width to wrap stdout's text at word boundaries: the terminal's (COLUMNS when set),
   * undefined for a pipe or a file, where whoever shows the text wraps it.
   */
  readonly width?: number | undefined;
}

/**
 * The streams a command writes to. What it prints quotes the repository (file names, policy
 * keys, symbols, git's words), so `stdout` and `stderr` show every control character escaped
 * (escapeControls): nothing the repository holds recolours, retitles or rewrites the terminal.
 * `styled` writes as it is given, for the few writers that escape untrusted text themselves and
 * add their own escape sequences (the coloured report, the hook's verdict, the progress bar),
 * and for a diff meant for `git apply`, which must keep the code's bytes.
 */
export interface CommandIo extends CliIo {
  readonly styled: Pick<CliIo, 'stdout' | 'stderr'>;
}

export function commandIo(io: CliIo): CommandIo {
  const { ask } = io;
  return {
    ...io,
    stdout: (text) => io.stdout(escapeControls(text)),
    stderr: (text) => io.stderr(escapeControls(text)),
    // A question may quote what a model asked for: escaped like everything else printed.
    ...(ask === undefined ? {} : { ask: (question) => ask(escapeControls(question)) }),
    styled: { stdout: io.stdout, stderr: io.stderr },
  };
}
