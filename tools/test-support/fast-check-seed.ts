import fc from 'fast-check';
import { propertyRuns } from './property-runs.js';

// One seed for every property of a run when BLIS_FC_SEED is set (CI sets a fresh one and prints
// it), so a failure or a hang found there replays here: `BLIS_FC_SEED=<seed> pnpm test <file>`.
// A failing property shrinks: each candidate is a whole simulation, and shrinking a cluster
// config can take hours. Past 4 minutes the runner stops and reports the smallest failing case
// found so far (a passing property that long would stop too, as a pass; none comes close).
const seed = process.env.BLIS_FC_SEED;
// A property without its own numRuns gets fast-check's 100 cases, scaled by the run's budget
// (BLIS_PROPERTY_SCALE, ./property-runs.ts) like every explicit count.
fc.configureGlobal({
  ...fc.readConfigureGlobal(),
  numRuns: propertyRuns(100),
  interruptAfterTimeLimit: 240_000,
  ...(seed !== undefined && seed !== '' ? { seed: Number(seed) } : {}),
});
