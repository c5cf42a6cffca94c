// The shape of one malformed-input case. Every case in `cases-*.ts` beside this file is run by
// bad-input-corpus.test.ts through the CLI's own `main()`, with the contract every bad input has:
// exit code 2, nothing on stdout, no stack trace, short located messages on stderr.

/** A file's contents, or a function that makes them (large inputs are generated, never committed). */
export type CaseFile = string | Uint8Array | (() => string | Uint8Array);

export interface BadInputCase {
  /** What the case is, as the test's title. */
  readonly name: string;
  /** Arguments after `blis`; `$DIR/` is replaced by the case's temporary folder holding `files`. */
  readonly args: readonly string[];
  /** Files written into `$DIR` before the run, by name relative to it. */
  readonly files?: Readonly<Record<string, CaseFile>>;
  /**
   * What stderr must say: each entry must match one line (a string is the whole line after
   * "blis: "). Lines are matched in order; extra lines are allowed unless `exactLines` is set.
   */
  readonly stderr: readonly (string | RegExp)[];
  /** When true, stderr has exactly as many lines as `stderr` has entries. */
  readonly exactLines?: boolean;
  /** Environment variables set for the run (BLIS_MEMORY_LIMIT), restored after it. */
  readonly env?: Readonly<Record<string, string>>;
  /** Longest stderr accepted, in bytes (default 4,096): a message quotes an excerpt, never the input. */
  readonly maxStderrBytes?: number;
}
