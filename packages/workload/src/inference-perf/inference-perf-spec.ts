import type { ClientSpec, WorkloadSpec } from '../spec-schema.js';
import { type IpIssue, type IpPlan, planInferencePerf } from './inference-perf-plan.js';
import type { InferencePerfSpec } from './inference-perf-schema.js';

/** What an `inference_perf:` spec keeps beside its expansion: the section as written, and BLIS's generation plan. */
export interface InferencePerfOrigin {
  readonly spec: InferencePerfSpec;
  readonly plan: IpPlan;
}

/** A spec read from an `inference_perf:` section: its expansion into clients, and its origin. */
export type InferencePerfWorkload = WorkloadSpec & { readonly inferencePerf: InferencePerfOrigin };

/**
 * Expands a validated `inference_perf` spec into clients, as BLIS's ExpandInferencePerfSpec
 * does. The clients describe the workload to everything that reads a spec's clients (limits,
 * progress, summaries); the requests themselves come from `inferencePerf`, the plan BLIS's
 * generator follows, so both simulators generate the same workload from the same seed.
 */
export function expandInferencePerf(spec: InferencePerfSpec): { spec: InferencePerfWorkload } | { issues: IpIssue[] } {
  const planned = planInferencePerf(spec.inference_perf);
  if ('issues' in planned) return planned;
  const plan = planned.plan;
  const stages = spec.inference_perf.stages;
  const clients = plan.clients.map((c): ClientSpec => {
    const stage = stages[c.stage];
    return {
      id: c.id,
      tenant_id: c.group,
      slo_class: 'standard',
      rate_fraction: stage.rate / plan.aggregateRate / (plan.clients.length / stages.length),
      streaming: false,
      arrival: { process: 'poisson' },
      input_distribution: { type: 'constant', params: { value: plan.questionLength } },
      output_distribution: { type: 'constant', params: { value: plan.outputLength } },
      prefix_group: c.group,
      prefix_length: plan.prefixLength,
      slo_target_us: 0,
      ...(c.window !== undefined ? { lifecycle: { windows: [{ start_us: c.window.start, end_us: c.window.end }] } } : {}),
      ...(c.session !== undefined
        ? { reasoning: { multi_turn: { max_rounds: c.session.maxRounds, think_time_us: c.session.thinkTimeUs, context_growth: 'none' as const, single_session: true } } }
        : {}),
    };
  });
  return {
    spec: {
      version: '2',
      seed: spec.seed,
      category: spec.category !== '' ? spec.category : plan.multiTurn ? 'reasoning' : 'language',
      aggregate_rate: plan.aggregateRate,
      ...(spec.num_requests !== undefined ? { num_requests: spec.num_requests } : {}),
      ...(spec.horizon !== undefined ? { horizon: spec.horizon } : {}),
      ...(spec.goodput_slo_targets !== undefined ? { goodput_slo_targets: spec.goodput_slo_targets } : {}),
      clients,
      inferencePerf: { spec, plan },
    },
  };
}
