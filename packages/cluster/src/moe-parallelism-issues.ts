import { type MoECommBackend, moeCommFamily } from '@blis/latency/internal';
import { expectedFound } from './kv-offload-schema.js';

/** The DP/EP fields of a configuration. */
export interface MoEParallelismFields {
  dp: number;
  enableExpertParallel: boolean;
  moeCommBackend?: MoECommBackend;
  latencyModel?: string;
}

/**
 * The DP/EP rules a configuration breaks on its own (the model-dependent ones, an MoE model
 * needed, are checked when the model is resolved): a backend needs DP > 1, an all-to-all backend
 * needs expert parallelism (vLLM runs those kernels only with it), and DP/EP need trained-physics.
 */
export function moeParallelismIssues(c: MoEParallelismFields): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const b = c.moeCommBackend;
  if (b !== undefined && c.dp <= 1)
    issues.push({ path: ['moeCommBackend'], message: expectedFound('dp > 1 (dispatch/combine runs only between data-parallel ranks; at dp 1 the MoE output is all-reduced over TP)', `dp ${c.dp}`) });
  if (b !== undefined && moeCommFamily(b) === 'all-to-all' && !c.enableExpertParallel)
    issues.push({
      path: ['moeCommBackend'],
      message: expectedFound(`enableExpertParallel with ${b} (vLLM runs its all-to-all kernels only with expert parallelism; without it, naive or allgather_reducescatter)`, 'enableExpertParallel false'),
    });
  const asked = c.dp > 1 || c.enableExpertParallel || b !== undefined;
  if (asked && c.latencyModel !== undefined && c.latencyModel !== 'trained-physics')
    issues.push({ path: ['latencyModel'], message: expectedFound('trained-physics with dp, enableExpertParallel or moeCommBackend (the only latency model with data/expert-parallel terms)', c.latencyModel) });
  return issues;
}
