import type { NodePoolConfig } from '../autoscale/autoscale-schema.js';
import type { GroupSpec } from '../autoscale/fleet.js';
import type { RunLimitIssue } from './run-limit-error.js';

/**
 * Scaling groups no node pool can ever host: no pool of the replicas' GPU type, none with
 * enough GPUs per node for their tensor parallelism, or none allowed a node. Such a run used to
 * end "0/300 completed" with every request still queued; it is refused at `nodePools` instead.
 * Placement matches as the node inventory does: a replica without a GPU type fits any pool.
 */
export function unplaceableGroupIssues(pools: readonly NodePoolConfig[] | undefined, groups: readonly GroupSpec[]): RunLimitIssue[] {
  if (pools === undefined) return [];
  const issues: RunLimitIssue[] = [];
  const seen = new Set<string>();
  for (const g of groups) {
    const key = `${g.gpuType.toLowerCase()}/${g.tp}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const want = g.gpuType.toLowerCase();
    const typed = pools.filter((p) => want === '' || p.gpuType.toLowerCase() === want);
    const who = `replicas${g.pool === 'monolithic' ? '' : ` of the ${g.pool} pool`} on ${g.gpuType === '' ? 'any GPU' : g.gpuType} at TP ${g.tp}`;
    const listed = pools.map((p) => `${p.name} (${p.gpuType}, ${p.gpusPerNode} GPU${p.gpusPerNode === 1 ? '' : 's'} per node, at most ${p.maxNodes} node${p.maxNodes === 1 ? '' : 's'})`).join(', ');
    let expected: string | undefined;
    if (typed.length === 0) expected = `a node pool of GPU type ${g.gpuType} for the ${who}`;
    else if (!typed.some((p) => p.gpusPerNode >= g.tp)) expected = `a ${g.gpuType === '' ? '' : `${g.gpuType} `}node pool with at least ${g.tp} GPUs per node for the ${who}`;
    else if (!typed.some((p) => p.gpusPerNode >= g.tp && p.maxNodes > 0)) expected = `a node pool that may hold a node (max_nodes >= 1) for the ${who}`;
    if (expected !== undefined) issues.push({ path: ['nodePools'], expected, found: listed });
  }
  return issues;
}
