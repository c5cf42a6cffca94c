// One budget for every property test's case count. BLIS_PROPERTY_SCALE (default 1) multiplies
// the cases of each property, so a longer hunt (CI on a schedule, a contributor chasing a bug)
// raises all of them at once, `BLIS_PROPERTY_SCALE=10 pnpm test`, and an edit-test loop can
// lower them, without editing a file. A file's own BLIS_PROPERTY_RUNS, where it has one, still
// sets that file's count outright. At least one case always runs.

/** The multiplier from `BLIS_PROPERTY_SCALE`; a value that is not a positive number is refused by name. */
export function propertyScale(raw: string | undefined = process.env.BLIS_PROPERTY_SCALE): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) throw new Error(`BLIS_PROPERTY_SCALE: expected a positive number, found ${JSON.stringify(raw)}`);
  return scale;
}

const SCALE = propertyScale();

/** `cases` scaled by the run's budget (rounded, at least 1). */
export function propertyRuns(cases: number, scale: number = SCALE): number {
  return Math.max(1, Math.round(cases * scale));
}
