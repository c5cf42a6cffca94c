import type { PoolType } from '@blis/policies';
import type { ResolvedPdConfig } from './pd-schema.js';

/**
 * BLIS's pool layout by instance index: prefill pods [0, P), decode pods [P, P+D), shared pods
 * [P+D, P+D+S), encode pods [P+D+S, P+D+S+E); instances beyond are in no pool and are never
 * routed to under P/D.
 */
export function poolLayout(pd: ResolvedPdConfig | undefined, numInstances: number): PoolType[] {
  const out: PoolType[] = new Array(numInstances);
  if (pd === undefined) return out.fill('monolithic');
  const p = pd.prefillInstances;
  const d = pd.decodeInstances;
  const s = pd.prefillDecodeInstances;
  const e = pd.encodeInstances;
  for (let i = 0; i < numInstances; i++) out[i] = i < p ? 'prefill' : i < p + d ? 'decode' : i < p + d + s ? 'shared' : i < p + d + s + e ? 'encode' : 'unassigned';
  return out;
}

/** Whether a pod of this type takes prefill parts. */
export function servesPrefill(pool: PoolType): boolean {
  return pool === 'prefill' || pool === 'shared';
}

/** Whether a pod of this type takes decode parts (and whole requests the decider keeps local). */
export function servesDecode(pool: PoolType): boolean {
  return pool === 'decode' || pool === 'shared';
}
