// @blis/adapters: what a search or a sweep calls. Each capability lives in its own folder and
// is exported from its section below.

// --- evaluate: the blis-eval/1 protocol (src/evaluate/) ---

// --- decision-tree policies (src/decision-tree/) ---

// --- sweeps and compare (src/sweep/) ---

// --- capacity search (src/capacity/) ---
export { findCapacity } from './capacity/find-capacity.js';
export { CapacitySettingsSchema, parseCapacitySettings } from './capacity/capacity-options.js';
export type { CapacityOptions, CapacityHooks, CapacitySearch, CapacitySettings, CapacitySettingsInput } from './capacity/capacity-options.js';
export { CapacityTargetSchema, CAPACITY_METRICS, CAPACITY_STATS, parseTargets, checkTarget, targetLabel, unavailableStat } from './capacity/capacity-target.js';
export type { CapacityTarget, CapacityMetric, CapacityStat, TargetCheck } from './capacity/capacity-target.js';
export { CapacityInputError } from './capacity/capacity-input-error.js';
export type { CapacityIssue } from './capacity/capacity-input-error.js';
export { largestPassing, smallestPassingInteger } from './capacity/bracket-search.js';
export type { SearchOutcome, SearchStatus, Probe } from './capacity/bracket-search.js';
export { rateAxis } from './capacity/rate-axis.js';
export type { RateAxis, WorkloadInput } from './capacity/rate-axis.js';
export { confidenceOf, formatValue } from './capacity/capacity-report.js';
export type { CapacityReport, CapacityProbe, CapacityRun, CapacityConfidence, SeedDisagreement } from './capacity/capacity-report.js';
