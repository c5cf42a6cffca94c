export { RUN_LIMITS, type RunLimits } from './run-limits.js';
export { RunLimitError, type RunLimitIssue } from './run-limit-error.js';
export { configLimitIssues, kvBlockIssues, type KVDerivation } from './config-limits.js';
export { MEMORY_COSTS, cpuTierBytes, estimateMemory, formatBytes, kvCacheBytes, requestsOf, timeseriesSamplesOf, type CpuTierSize, type InstanceGroup, type MemoryEstimate, type MemoryEstimateInput } from './memory-estimate.js';
export { heapMegabytesFor, memoryLimitIssues, type MemoryLimit } from './memory-limit.js';
export { autoscaleLimitIssues, autoscalePeak, type AutoscalePeak } from './autoscale-peak.js';
export type { FleetCeiling } from './fleet-ceiling.js';
