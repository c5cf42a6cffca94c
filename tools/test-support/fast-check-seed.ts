import fc from 'fast-check';

// One seed for every property of a run when BLIS_FC_SEED is set (CI sets a fresh one and prints
// it), so a failure or a hang found there replays here: `BLIS_FC_SEED=<seed> pnpm test <file>`.
const seed = process.env.BLIS_FC_SEED;
if (seed !== undefined && seed !== '') fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
