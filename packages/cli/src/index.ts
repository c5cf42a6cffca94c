export { main, buildProgram } from './main.js';
export { SIMULATION_FLAGS, REPLAY_FLAGS } from './flags/run-flags.js';
export type { FlagDef, FlagKind } from './flags/flags.js';
export { UsageError } from './errors/usage-error.js';
export type { UsageIssue } from './errors/usage-error.js';
