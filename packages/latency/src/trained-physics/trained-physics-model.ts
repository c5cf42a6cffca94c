import type { GpuSpec } from '../hardware.js';
import type { LatencyModel, StepBatch } from '../latency-model.js';
import type { ModelArchitecture } from '../model-config.js';
import { type MoEParallelism, NO_MOE_PARALLELISM } from '../moe/moe-parallelism.js';
import { type TrainedPhysicsArchitecture, trainedPhysicsArchitecture } from './architecture.js';
import { TRAINED_PHYSICS_DEFAULTS, checkTrainedPhysicsCoefficients, normalizeBetas } from './coefficients.js';
import { type StepBases, stepBases } from './step-bases.js';

/**
 * BLIS HEAD's default latency model (f90a1e3a): roofline-shaped basis times at raw peak FLOPs
 * and bandwidth (no MFU), each scaled by a trained coefficient, plus fixed overheads:
 *
 * `step = β1·T_pf_compute + β9·T_pf_kv + β2·T_dc_compute + β10·T_dc_kv + β3·T_weight
 *   + β4·(T_tp_attn + T_tp_dense + T_moe_reduce) + β11·T_moe_dispatch + β5·layers
 *   + β6·requests + β7 + β8·MoE layers (interleaved models only)`
 *
 * With 7 or 8 betas the prefill pair is `β1·max(compute, kv)`; with fewer than 10 the decode
 * pair is `β2·max(compute, kv)`. The step is truncated to whole µs, at least 1.
 *
 * With data parallelism (`parallelism.dp` > 1, MoE models only) the token terms are one rank's
 * share, the routed experts are sharded over TP·DP GPUs, and the MoE all-reduce becomes the
 * backend's dispatch/combine (`T_moe_dispatch`, β11); see docs/latency-models.md.
 *
 * Alphas: `alpha[0]` is a constant queueing delay, `alpha[1]` is added once to the E2E of a
 * request with output tokens when it completes, `alpha[2]` is added to TTFT and to every ITL.
 */
export class TrainedPhysicsLatencyModel implements LatencyModel {
  readonly kind = 'trained-physics';
  readonly decodeInputs = 'sum';
  readonly model: ModelArchitecture;
  readonly gpu: GpuSpec;
  readonly tp: number;
  /** Data/expert parallelism of the instance (DP 1, EP off unless given). */
  readonly parallelism: MoEParallelism;
  readonly alpha: readonly number[];
  /** The beta vector as given (7 to 11 values). */
  readonly beta: readonly number[];
  private readonly arch: TrainedPhysicsArchitecture;
  private readonly b: readonly number[];
  private readonly prefillSplit: boolean;
  private readonly decodeSplit: boolean;
  // The fractional fields start as -0, doubles (see EventQueue.poppedTime in @blis/engine).
  private readonly bases: StepBases = { pfCompute: -0, pfKv: -0, dcCompute: -0, dcKv: -0, weight: -0, tpComm: -0, moeDispatch: -0, requests: 0 };

  constructor(
    model: ModelArchitecture,
    gpu: GpuSpec,
    tp: number,
    alpha: readonly number[] = TRAINED_PHYSICS_DEFAULTS.alpha,
    beta: readonly number[] = TRAINED_PHYSICS_DEFAULTS.beta,
    parallelism: MoEParallelism = NO_MOE_PARALLELISM,
  ) {
    checkTrainedPhysicsCoefficients(alpha, beta);
    this.arch = trainedPhysicsArchitecture(model.step, gpu, tp, parallelism);
    this.parallelism = { ...parallelism };
    this.model = model;
    this.gpu = gpu;
    this.tp = tp;
    this.alpha = [...alpha];
    this.beta = [...beta];
    const n = normalizeBetas(beta);
    this.b = n.beta;
    this.prefillSplit = n.prefillSplit;
    this.decodeSplit = n.decodeSplit;
  }

  /** The basis times (µs, before coefficients) of a step, for inspection and tests. */
  basesOf(batch: StepBatch): Readonly<StepBases> {
    return stepBases(this.arch, batch, { ...this.bases });
  }

  stepTime(batch: StepBatch): number {
    if (batch.prefillCount + batch.decodeCount === 0) return 1;
    const t = stepBases(this.arch, batch, this.bases);
    const b = this.b;
    const prefill = this.prefillSplit ? b[0] * t.pfCompute + b[8] * t.pfKv : b[0] * Math.max(t.pfCompute, t.pfKv);
    const decode = this.decodeSplit ? b[1] * t.dcCompute + b[9] * t.dcKv : b[1] * Math.max(t.dcCompute, t.dcKv);
    const moeScaling = this.arch.interleaved ? 1 : 0;
    const us =
      prefill +
      decode +
      b[2] * t.weight +
      b[3] * t.tpComm +
      b[10] * t.moeDispatch +
      b[4] * this.arch.layers +
      b[5] * t.requests +
      b[6] +
      b[7] * moeScaling * this.arch.moeLayers;
    return Math.max(1, Math.trunc(us));
  }

  queueingTime(_inputTokens: number): number {
    return Math.trunc(this.alpha[0]);
  }

  outputTokenTime(): number {
    return Math.trunc(this.alpha[2]);
  }

  postDecodeFixedOverhead(): number {
    return Math.trunc(this.alpha[1]);
  }
}
