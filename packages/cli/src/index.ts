export { main, buildProgram } from './main.js';
export { SIMULATION_FLAGS, REPLAY_FLAGS } from './run-flags.js';
export type { FlagDef, FlagKind } from './flags.js';
export { UsageError } from './usage-error.js';
export type { UsageIssue } from './usage-error.js';
