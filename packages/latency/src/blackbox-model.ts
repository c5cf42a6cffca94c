import type { LatencyModel, StepBatch } from './latency-model.js';

/**
 * BLIS's trained linear model. Step time is summed in float64 in BLIS's order and truncated
 * toward zero (at least 1 µs), so results match the Go simulator bit for bit:
 * `beta0 + beta1 * cacheMissPrefillTokens + beta2 * decodeTokens`.
 * Queueing time is `alpha0 + alpha1 * inputTokens`; alpha2 is the per-output-token overhead.
 */
export class BlackboxLatencyModel implements LatencyModel {
  readonly kind = 'blackbox';
  readonly decodeInputs = 'count';
  readonly alpha: readonly [number, number, number];
  readonly beta: readonly [number, number, number];
  private readonly a2: number;

  constructor(alpha: readonly number[], beta: readonly number[]) {
    if (alpha.length !== 3 || beta.length !== 3) throw new RangeError('blackbox model needs exactly 3 alpha and 3 beta coefficients');
    for (const v of [...alpha, ...beta]) if (!Number.isFinite(v)) throw new RangeError(`coefficient ${v} is not a finite number`);
    this.alpha = [alpha[0], alpha[1], alpha[2]];
    this.beta = [beta[0], beta[1], beta[2]];
    this.a2 = Math.trunc(alpha[2]);
  }

  stepTime(batch: StepBatch): number {
    let t = 0;
    t += this.beta[0];
    t += this.beta[1] * batch.prefillTokens;
    t += this.beta[2] * batch.decodeTokens;
    const us = Math.trunc(t);
    return Math.max(us , 1);
  }

  queueingTime(inputTokens: number): number {
    return Math.trunc(this.alpha[0] + this.alpha[1] * inputTokens);
  }

  outputTokenTime(): number {
    return this.a2;
  }

  postDecodeFixedOverhead(): number {
    return 0;
  }
}
