import { moeCommFamily, type MoECommBackend } from '@blis/latency/internal';
import { DEFAULT_MODEL, architectureFor } from './model-architecture.js';
import type { UsageIssue } from '../errors/usage-error.js';

/** The DP/EP flags as the configuration takes them. */
export interface MoEFlagFields {
  dp?: number;
  enableExpertParallel?: true;
  moeCommBackend?: MoECommBackend;
}

/**
 * `--dp`, `--enable-expert-parallel` and `--moe-comm-backend`, checked against each other, the
 * latency model and the model before anything runs: BLIS's refusals (a dense model, a latency
 * model other than trained-physics) and the settings that would change nothing (a backend at DP 1,
 * where BLIS only warns; an all-to-all backend without EP, which vLLM never runs). The library
 * checks the same when it resolves the model (`@blis/latency`'s `checkMoEParallelismFor`).
 */
export function moeFlagFields(f: Record<string, unknown>, modelConfigReadable: boolean, issues: UsageIssue[]): MoEFlagFields {
  const dp = f.dp as number | undefined;
  const ep = f.enableExpertParallel === true;
  const backend = f.moeCommBackend as MoECommBackend | undefined;
  const fields: MoEFlagFields = { dp, enableExpertParallel: ep ? true : undefined, moeCommBackend: backend };
  const dpRanks = dp ?? 1;
  if (backend !== undefined && dpRanks <= 1)
    issues.push({ where: '--moe-comm-backend', expected: '--dp > 1 (dispatch/combine runs only between data-parallel ranks; at --dp 1 the MoE output is all-reduced over TP)', found: `--dp ${dpRanks}` });
  if (backend !== undefined && moeCommFamily(backend) === 'all-to-all' && !ep)
    issues.push({
      where: '--moe-comm-backend',
      expected: `--enable-expert-parallel with ${backend} (vLLM runs its all-to-all kernels only with expert parallelism; without it, naive or allgather_reducescatter)`,
      found: 'expert parallelism off',
    });
  const flag = dpRanks > 1 ? '--dp' : ep ? '--enable-expert-parallel' : backend !== undefined ? '--moe-comm-backend' : undefined;
  if (flag === undefined) return fields;
  const given = dpRanks > 1 ? `--dp ${dpRanks}` : ep ? '--enable-expert-parallel' : `--moe-comm-backend ${backend}`;
  // P/D pools may pick their own latency model; BLIS's DP applies to every pool.
  for (const which of ['latency-model', 'prefill-latency-model', 'decode-latency-model']) {
    const latencyModel = f[which.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] as string | undefined;
    if (latencyModel !== undefined && latencyModel !== 'trained-physics') {
      issues.push({ where: flag, expected: `--${which} trained-physics (the only latency model with data/expert-parallel terms)`, found: `${given} with --${which} ${latencyModel}` });
      return fields;
    }
  }
  if (!modelConfigReadable) return fields;
  const model = (f.model as string | undefined) ?? DEFAULT_MODEL;
  const arch = architectureFor(model, f.modelConfig as string | undefined);
  if (arch !== undefined && arch.step.experts < 2)
    issues.push({
      where: flag,
      expected: "a mixture-of-experts model (at least 2 routed experts; a dense model's data parallelism is --num-instances)",
      found: `${given} for ${f.modelConfig ?? model}, a dense model`,
    });
  return fields;
}
