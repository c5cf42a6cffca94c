// What a candidate module writes to stdout goes to stderr (EvaluateSandbox). When the launcher's
// thread ran the candidate before the command took the request over (launcher-evaluate.ts), that
// output was shown once already: the command's own run of the same candidate stays quiet.

const SHOWN = '__blisCandidateOutputShown';

/** Notes that the candidate's output of this request was shown. */
export function markCandidateOutputShown(): void {
  (globalThis as { [SHOWN]?: boolean })[SHOWN] = true;
}

/** Whether the candidate's output of this request was shown already. */
export function candidateOutputShown(): boolean {
  return (globalThis as { [SHOWN]?: boolean })[SHOWN] === true;
}
