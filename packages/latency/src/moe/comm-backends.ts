/**
 * vLLM's MoE all-to-all backends (`VLLM_ALL2ALL_BACKEND`), in vLLM's order, each with the volume
 * its dispatch/combine moves. The all-gather family moves every token's hidden state once per
 * phase whatever its top-k; the all-to-all family sends each token to its top-k experts' ranks.
 */
export const MOE_COMM_BACKENDS = ['naive', 'allgather_reducescatter', 'pplx', 'deepep_high_throughput', 'deepep_low_latency', 'mori', 'flashinfer_all2allv'] as const;

export type MoECommBackend = (typeof MOE_COMM_BACKENDS)[number];

/** vLLM's default backend, used when none is named. */
export const DEFAULT_MOE_COMM_BACKEND: MoECommBackend = 'allgather_reducescatter';

/** `all-gather`: volume ∝ tokens·hidden; `all-to-all`: volume ∝ tokens·top-k·hidden. */
export type MoECommFamily = 'all-gather' | 'all-to-all';

const ALL_GATHER: ReadonlySet<string> = new Set(['naive', 'allgather_reducescatter']);

/** Whether `name` is one of {@link MOE_COMM_BACKENDS}. */
export function isMoECommBackend(name: string): name is MoECommBackend {
  return (MOE_COMM_BACKENDS as readonly string[]).includes(name);
}

/** The volume family of a backend. */
export function moeCommFamily(backend: MoECommBackend): MoECommFamily {
  return ALL_GATHER.has(backend) ? 'all-gather' : 'all-to-all';
}
