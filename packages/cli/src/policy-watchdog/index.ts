// Stops a run whose custom policy code never returns (a watchdog thread; see policy-watchdog.ts).
export { PolicyWatchdog, policyWatchdog } from './policy-watchdog.js';
