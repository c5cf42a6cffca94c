/** The flag-driven workload's length and arrival flags, as `specFromFlags` and the synthetic workload name them. */
export interface LengthFlagValues {
  promptTokens?: number;
  promptTokensStdev?: number;
  promptTokensMin?: number;
  promptTokensMax?: number;
  outputTokens?: number;
  outputTokensStdev?: number;
  outputTokensMin?: number;
  outputTokensMax?: number;
  prefixTokens?: number;
  arrivalProcess?: 'poisson' | 'constant';
}

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
