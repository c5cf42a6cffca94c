import { rmSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { blis, ROOT } from './blis-process.js';

// docs/workloads.md: every complete spec it shows (a ```yaml block starting with `version:`) runs
// as shown, with the flags of the `<!-- doc-spec: ... -->` line before it (default: the model
// and 40 requests), and together they use every field of BLIS HEAD's WorkloadSpec (f90a1e3a,
// sim/workload/spec.go), so each field has a runnable example.

const DOC = readFileSync(join(ROOT, 'docs', 'workloads.md'), 'utf8');
const DEFAULT_FLAGS = ['--model', 'qwen/qwen3-14b', '--num-requests', '40'];

interface DocSpec {
  line: number;
  text: string;
  flags: string[];
}

function docSpecs(): DocSpec[] {
  const lines = DOC.split('\n');
  const out: DocSpec[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```yaml' || !lines[i + 1]?.startsWith('version:')) continue;
    const end = lines.indexOf('```', i + 1);
    const flagLine = /^<!-- doc-spec: (.*) -->$/.exec(lines[i - 1] ?? '');
    out.push({ line: i + 2, text: `${lines.slice(i + 1, end).join('\n')}\n`, flags: flagLine !== null ? flagLine[1].split(' ') : DEFAULT_FLAGS });
  }
  return out;
}

/**
 * Every YAML field of BLIS's WorkloadSpec and the types under it, by name. Not here, on purpose:
 * a distribution's own `file` (BLIS reads it nowhere: its empirical form needs inline params).
 */
const BLIS_FIELDS = [
  // WorkloadSpec
  'version', 'seed', 'category', 'clients', 'cohorts', 'aggregate_rate', 'horizon', 'num_requests', 'servegen_data', 'inference_perf', 'goodput_slo_targets',
  // ClientSpec
  'id', 'tenant_id', 'slo_class', 'model', 'adapter', 'rate_fraction', 'concurrency', 'think_time_us', 'arrival', 'input_distribution', 'output_distribution',
  'prefix_group', 'prefix_length', 'streaming', 'network', 'lifecycle', 'reasoning', 'timeout', 'slo_target_us', 'closed_loop', 'multimodal',
  // MultimodalSpec
  'text_distribution', 'image_distribution', 'image_count_distribution', 'audio_distribution', 'audio_count_distribution', 'video_distribution', 'video_count_distribution',
  // CohortSpec, DiurnalSpec, SpikeSpec, DrainSpec
  'population', 'prefix_sharing', 'diurnal', 'spike', 'drain', 'peak_hour', 'peak_to_trough_ratio', 'start_time_us', 'duration_us', 'trace_rate', 'ramp_duration_us',
  // ArrivalSpec, DistSpec, NetworkSpec
  'process', 'cv', 'shape', 'scale', 'type', 'params', 'rtt_ms', 'bandwidth_mbps',
  // LifecycleSpec, ActiveWindow
  'windows', 'start_us', 'end_us',
  // ReasoningSpec, MultiTurnSpec
  'reason_ratio_distribution', 'multi_turn', 'max_rounds', 'context_growth', 'single_session',
  // ServeGenDataSpec
  'path', 'time_window', 'span_start', 'span_end', 'window_duration_secs', 'drain_timeout_secs',
  // SLODimTargets
  'ttft_ms', 'itl_ms', 'e2e_ms',
  // InferencePerfSpec (inference_perf.go)
  'stages', 'rate', 'duration', 'shared_prefix', 'num_unique_system_prompts', 'num_users_per_system_prompt', 'system_prompt_len', 'question_len', 'output_len', 'enable_multi_turn_chat',
];

/** Keys used anywhere in a parsed spec, but not under a distribution's `params` (values there) or goodput's class names. */
function keysOf(v: unknown, out: Set<string>, parent = ''): void {
  if (Array.isArray(v)) for (const x of v) keysOf(x, out, parent);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (parent !== 'goodput_slo_targets') out.add(k);
      if (k !== 'params') keysOf(x, out, parent === 'goodput_slo_targets' ? '' : k);
    }
}

const written: string[] = [];
afterAll(() => {
  for (const f of written) rmSync(f, { force: true });
});

describe('docs/workloads.md', () => {
  const specs = docSpecs();

  it('shows complete specs that use every field of BLIS HEAD\'s WorkloadSpec', () => {
    expect(specs.length).toBeGreaterThanOrEqual(6);
    const used = new Set<string>();
    for (const s of specs) keysOf(parse(s.text), used);
    expect(BLIS_FIELDS.filter((f) => !used.has(f))).toEqual([]);
  });

  describe.concurrent.each(specs)('the spec at line $line', (s) => {
    it('runs as shown', async () => {
      // At the repository root, where the doc's relative paths (empirical CSVs, ServeGen data) point.
      const file = join(ROOT, `.doc-spec-${process.pid}-${s.line}.yaml`);
      written.push(file);
      writeFileSync(file, s.text);
      const r = await blis(['run', ...s.flags, '--workload-spec', file, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout);
      expect(result.completed_requests).toBeGreaterThan(0);
      if (s.text.includes('goodput_slo_targets:')) expect(Object.keys(result.goodput.per_class).length).toBeGreaterThan(0);
    });
  });
});
