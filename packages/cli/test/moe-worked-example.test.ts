import { simulate } from '@blis/cluster';
import { TrainedPhysicsLatencyModel, deriveKVCapacity, hardwareSpec, parseModelConfig } from '@blis/latency';
import { createStepBatch, modelConfigRaw } from '@blis/latency/internal';
import { describe, expect, it } from 'vitest';

// The worked example of README.md and docs/latency-models.md (DP/EP vs TP for qwen3-30b-a3b on 4
// H100s): the numbers the documents print are the numbers the simulator gives.

const QWEN = parseModelConfig(modelConfigRaw('qwen/qwen3-30b-a3b'), 'qwen3-30b-a3b');
const H100 = hardwareSpec('H100');

const ROWS = [
  { flags: '--tp 4', cfg: { tp: 4 }, blocks: 151_196, step: 10_066, ttft: 3363, ttftP99: 7771, e2e: 8698, itl: 10.31, tps: 20979 },
  { flags: '--tp 2 --dp 2 --enable-expert-parallel', cfg: { tp: 2, dp: 2, enableExpertParallel: true }, blocks: 144_286, step: 10_148, ttft: 3452, ttftP99: 7967, e2e: 8817, itl: 10.37, tps: 20859 },
  { flags: '--tp 1 --dp 4 --enable-expert-parallel', cfg: { tp: 1, dp: 4, enableExpertParallel: true }, blocks: 131_696, step: 10_327, ttft: 3730, ttftP99: 8573, e2e: 9181, itl: 10.53, tps: 20539 },
  {
    flags: '... --moe-comm-backend deepep_low_latency',
    cfg: { tp: 1, dp: 4, enableExpertParallel: true, moeCommBackend: 'deepep_low_latency' as const },
    blocks: 131_696,
    step: 10_342,
    ttft: 3827,
    ttftP99: 8784,
    e2e: 9307,
    itl: 10.59,
    tps: 20446,
  },
];

describe.each(ROWS)('qwen3-30b-a3b on 4 H100s as $flags', (row) => {
  it('one decode step of 128 requests at context 2,000', () => {
    const b = createStepBatch();
    b.decodeCount = b.decodeTokens = 128;
    b.decodeContext.fill(2000, 0, 128);
    const model = new TrainedPhysicsLatencyModel(QWEN, H100, row.cfg.tp, undefined, undefined, {
      dp: row.cfg.dp ?? 1,
      enableExpertParallel: row.cfg.enableExpertParallel ?? false,
      moeCommBackend: row.cfg.moeCommBackend,
    });
    expect(model.stepTime(b)).toBe(row.step);
  });

  it('2,000 requests at 60 req/s with derived KV capacity', () => {
    const r = simulate({ model: 'qwen/qwen3-30b-a3b', hardware: 'H100', ...row.cfg, workload: { kind: 'synthetic', rate: 60, numRequests: 2000 } });
    expect(r.completed_requests).toBe(2000);
    expect(Math.round(r.ttft_mean_ms)).toBe(row.ttft);
    expect(Math.round(r.ttft_p99_ms)).toBe(row.ttftP99);
    expect(Math.round(r.e2e_mean_ms)).toBe(row.e2e);
    expect(r.itl_mean_ms.toFixed(2)).toBe(row.itl.toFixed(2));
    expect(Math.round(r.tokens_per_sec)).toBe(row.tps);
    expect(r.preemption_count).toBe(0);
    const kv = deriveKVCapacity({ modelConfig: QWEN, hardware: H100, tp: row.cfg.tp, dp: row.cfg.dp });
    expect(kv.blocks).toBe(row.blocks);
  });
});
