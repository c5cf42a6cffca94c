import { WorkloadMemo } from '@blis/cluster/internal';

/**
 * The spec workloads this process's evaluations generated, replayed by later ones: a search
 * evaluates the same scenarios (spec and seed) for every candidate, and generating a stream
 * costs about a fifth of simulating a short one. Bounded (entries, bytes); invisible in results.
 */
export const evaluatedWorkloads = new WorkloadMemo();
