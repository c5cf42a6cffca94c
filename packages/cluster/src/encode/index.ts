export { type EncodeMetrics, encodeMetrics } from './encode-metrics.js';
export { type EncodeOutcome, type EncodeSetup, EncodeStage, type EncodeStats } from './encode-stage.js';
export { type EncodeFields, encodeTopologyIssues } from './encode-topology.js';
