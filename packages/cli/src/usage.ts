/** What a command needs from the process, so tests can run commands in-process too. */
export interface CommandIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Colour the table (a terminal, and NO_COLOR unset). */
  colour: boolean;
  /** stdout is a terminal: `--json` is indented to be read; piped it is one line (half the bytes). */
  terminal?: boolean;
  /** Stops a long-running command (`agent`); without it, SIGINT and SIGTERM do. */
  signal?: AbortSignal;
}

/** Bad command-line use: reported in one line with the usage, exit 1. */
export class UsageError extends Error {
  override name = 'UsageError';
}
