export { type EncodeMetrics, encodeMetrics } from './encode-metrics.js';
export { ENCODE_REJECTED_DETAIL, type EncodeOutcome, type EncodeSetup, EncodeStage, type EncodeStats } from './encode-stage.js';
export { type EncodeFields, encodeTopologyIssues } from './encode-topology.js';
