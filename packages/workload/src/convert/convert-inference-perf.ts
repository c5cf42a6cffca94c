import { WorkloadSpecError } from '../errors.js';
import { type IpIssue, planInferencePerf } from '../inference-perf/inference-perf-plan.js';
import type { InferencePerfSpec } from '../inference-perf/inference-perf-schema.js';
import { parseWorkloadSpecText } from '../spec-load.js';
import { fieldPathText } from '../text-excerpt.js';
import { parseYamlInput, readYamlText, yamlLineOf } from '../yaml-input.js';
import type { BlisClient, BlisWorkloadSpec } from './blis-spec-document.js';

const constant = (value: number) => ({ type: 'constant', params: { value } });

/**
 * `blis convert inference-perf`: an `inference_perf:` spec expanded into the clients BLIS HEAD's
 * ExpandInferencePerfSpec writes. What BLIS keeps out of YAML is lost here as there: the
 * normalised-exponential arrivals of a single stage and the exact per-client Poisson rate of
 * several print as plain `poisson` (so the written spec, run again, is not the same workload),
 * and the file's own `num_requests`, `horizon` and `category` are dropped.
 */
export function convertInferencePerf(spec: InferencePerfSpec, seed: number): { spec: BlisWorkloadSpec } | { issues: IpIssue[] } {
  const planned = planInferencePerf(spec.inference_perf);
  if ('issues' in planned) return planned;
  const { plan } = planned;
  const ip = spec.inference_perf;
  const sp = ip.shared_prefix;
  const perStage = sp.num_unique_system_prompts * sp.num_users_per_system_prompt;
  // BLIS's validation of the expansion: a session split into zero rounds is refused.
  const empty = plan.clients.findIndex((c) => c.session !== undefined && c.session.maxRounds < 1);
  if (empty >= 0)
    return {
      issues: [
        {
          path: ['inference_perf', 'shared_prefix'],
          expected: `at most ${Math.floor(ip.stages[plan.clients[empty].stage].rate * ip.stages[plan.clients[empty].stage].duration)} sessions per stage (rate × duration requests, one round or more each)`,
          found: `${perStage} sessions (system prompts × users per prompt)`,
        },
      ],
    };
  const clients = plan.clients.map(
    (c): BlisClient => ({
      id: c.id,
      tenant_id: c.group,
      slo_class: 'standard',
      rate_fraction: ip.stages.length === 1 ? 1 / perStage : 1,
      arrival: { process: 'poisson' },
      input_distribution: constant(sp.question_len),
      output_distribution: constant(sp.output_len),
      prefix_group: c.group,
      prefix_length: sp.system_prompt_len,
      streaming: false,
      ...(c.window !== undefined ? { lifecycle: { windows: [{ start_us: c.window.start, end_us: c.window.end }] } } : {}),
      ...(c.session !== undefined
        ? { reasoning: { reason_ratio_distribution: constant(0), multi_turn: { max_rounds: c.session.maxRounds, think_time_us: c.session.thinkTimeUs, context_growth: '', single_session: true } } }
        : {}),
    }),
  );
  let aggregateRate = 0;
  for (const s of ip.stages) aggregateRate += s.rate;
  return { spec: { version: '2', seed, category: sp.enable_multi_turn_chat ? 'reasoning' : 'language', clients, cohorts: [], aggregate_rate: aggregateRate, num_requests: 0 } };
}

/**
 * Reads and validates the spec file `blis convert inference-perf --spec` names (as `blis run`
 * reads it: every problem with its line) and converts it. The seed is the file's, 0 when it
 * gives none (BLIS's zero value; a run of the file defaults to 42 instead).
 */
export function convertInferencePerfFile(path: string): BlisWorkloadSpec {
  const read = readYamlText(path, 'workload spec');
  if (!read.ok) throw new WorkloadSpecError(read.issues);
  const parsed = parseYamlInput(read.text, path);
  if (!parsed.ok) throw new WorkloadSpecError(parsed.issues);
  const raw = parsed.yaml.value;
  if (raw === null || typeof raw !== 'object' || !('inference_perf' in raw))
    throw new WorkloadSpecError([{ file: path, expected: 'a workload spec with an inference_perf section', found: 'no inference_perf section' }]);
  const loaded = parseWorkloadSpecText(read.text, path);
  const origin = loaded.inferencePerf!;
  const converted = convertInferencePerf(origin.spec, 'seed' in raw ? origin.spec.seed : 0);
  if ('issues' in converted)
    throw new WorkloadSpecError(converted.issues.map((i) => ({ file: path, line: yamlLineOf(parsed.yaml, i.path), field: fieldPathText(i.path), expected: i.expected, found: i.found })));
  return converted.spec;
}
