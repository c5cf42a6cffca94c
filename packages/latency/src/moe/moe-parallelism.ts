import { LatencyConfigError } from '../errors.js';
import { DEFAULT_MOE_COMM_BACKEND, MOE_COMM_BACKENDS, type MoECommBackend, isMoECommBackend, moeCommFamily } from './comm-backends.js';

/**
 * Data and expert parallelism of one instance (vLLM's `--data-parallel-size`,
 * `--enable-expert-parallel`, `VLLM_ALL2ALL_BACKEND`). An instance is `dp` ranks of `tp` GPUs:
 * attention and KV are per rank, routed experts are sharded over all `tp·dp` GPUs.
 */
export interface MoEParallelism {
  dp: number;
  enableExpertParallel: boolean;
  /** Absent: vLLM's default, `allgather_reducescatter`. */
  moeCommBackend?: MoECommBackend;
}

/** Single-rank, no expert parallelism: the deployment every run had before DP/EP existed. */
export const NO_MOE_PARALLELISM: MoEParallelism = Object.freeze({ dp: 1, enableExpertParallel: false });

/** The backend a deployment's dispatch runs on. */
export function effectiveCommBackend(p: MoEParallelism): MoECommBackend {
  return p.moeCommBackend ?? DEFAULT_MOE_COMM_BACKEND;
}

/** Whether `p` asks for anything beyond a single rank without EP. */
export function usesMoEParallelism(p: MoEParallelism | undefined): boolean {
  return p !== undefined && (p.dp > 1 || p.enableExpertParallel || p.moeCommBackend !== undefined);
}

/**
 * Refuses what BLIS refuses, and the settings that would change nothing: DP below 1, a backend
 * name vLLM does not know, a backend at DP 1 (vLLM's MoE then all-reduces over TP; BLIS only
 * warns), and an all-to-all backend without expert parallelism (vLLM runs those kernels only when
 * `dp > 1` and EP is on; without EP it all-gathers, which BLIS does not model). The model- and
 * latency-dependent rules are {@link checkMoEParallelismFor}'s.
 */
export function checkMoEParallelism(p: MoEParallelism): void {
  if (!(Number.isInteger(p.dp) && p.dp >= 1)) throw new LatencyConfigError(`--dp: expected an integer >= 1 (data-parallel ranks per instance), found ${p.dp}`);
  const b = p.moeCommBackend;
  if (b === undefined) return;
  if (!isMoECommBackend(b)) throw new LatencyConfigError(`--moe-comm-backend: expected one of ${MOE_COMM_BACKENDS.join(', ')}, found "${String(b)}"`);
  if (p.dp <= 1)
    throw new LatencyConfigError(`--moe-comm-backend: expected --dp > 1 (dispatch/combine runs only between data-parallel ranks; at DP 1 the MoE output is all-reduced over TP), found --dp ${p.dp}`);
  if (moeCommFamily(b) === 'all-to-all' && !p.enableExpertParallel)
    throw new LatencyConfigError(`--moe-comm-backend: expected --enable-expert-parallel with ${b} (vLLM runs its all-to-all kernels only with expert parallelism and otherwise all-gathers; use naive or allgather_reducescatter without it), found expert parallelism off`);
}

/**
 * The rules that need the model and the latency backend: DP/EP only for an MoE model under
 * trained-physics, as BLIS (and, for EP on a dense model, vLLM) refuses otherwise. `kindChosen`:
 * whether the caller named the latency model (else the message says the settings picked it).
 */
export function checkMoEParallelismFor(p: MoEParallelism, latencyKind: string, model: string, experts: number, kindChosen = true): void {
  checkMoEParallelism(p);
  if (!usesMoEParallelism(p)) return;
  const flag = p.dp > 1 ? '--dp' : p.enableExpertParallel ? '--enable-expert-parallel' : '--moe-comm-backend';
  const given = p.dp > 1 ? `--dp ${p.dp}` : p.enableExpertParallel ? '--enable-expert-parallel' : `--moe-comm-backend ${p.moeCommBackend}`;
  if (latencyKind !== 'trained-physics')
    throw new LatencyConfigError(`${flag}: expected --latency-model trained-physics (the only latency model with data/expert-parallel terms), found ${given} with ${kindChosen ? `--latency-model ${latencyKind}` : `the ${latencyKind} latency model these settings select`}`);
  if (experts < 2)
    throw new LatencyConfigError(
      `${flag}: expected a mixture-of-experts model (at least 2 routed experts; a dense model's data parallelism is --num-instances), found ${given} for ${model}, a dense model`,
    );
}
