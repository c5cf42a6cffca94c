import type { FlagWorkload } from '@blis/workload';
import type { UsageIssue } from '../errors/usage-error.js';

/** The flag-driven workload's length and arrival-process fields (`FlagWorkload`'s names). */
export type LengthFlagValues = Pick<
  FlagWorkload,
  | 'promptTokens'
  | 'promptTokensStdev'
  | 'promptTokensMin'
  | 'promptTokensMax'
  | 'outputTokens'
  | 'outputTokensStdev'
  | 'outputTokensMin'
  | 'outputTokensMax'
  | 'prefixTokens'
  | 'arrivalProcess'
>;

/** Picks the length and arrival-process flags out of parsed flags (`blis run`, `blis observe`). */
export function lengthFlagValues(f: Record<string, unknown>): LengthFlagValues {
  return {
    promptTokens: f.promptTokens as number | undefined,
    promptTokensStdev: f.promptTokensStdev as number | undefined,
    promptTokensMin: f.promptTokensMin as number | undefined,
    promptTokensMax: f.promptTokensMax as number | undefined,
    outputTokens: f.outputTokens as number | undefined,
    outputTokensStdev: f.outputTokensStdev as number | undefined,
    outputTokensMin: f.outputTokensMin as number | undefined,
    outputTokensMax: f.outputTokensMax as number | undefined,
    prefixTokens: f.prefixTokens as number | undefined,
    arrivalProcess: f.arrivalProcess as 'poisson' | 'constant' | undefined,
  };
}

/** `--prompt-tokens-min` above `--prompt-tokens-max` (and the output pair): added to `issues`. */
export function lengthBoundIssues(f: Record<string, unknown>, issues: UsageIssue[]): void {
  for (const which of ['prompt', 'output'] as const) {
    const lo = f[`${which}TokensMin`] as number | undefined;
    const hi = f[`${which}TokensMax`] as number | undefined;
    if (lo !== undefined && hi !== undefined && lo > hi)
      issues.push({ where: `--${which}-tokens-min`, expected: `at most --${which}-tokens-max (${hi})`, found: String(lo) });
  }
}
