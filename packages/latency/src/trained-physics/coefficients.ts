import defaults from '../data/trained-physics-coefficients.json';
import { LatencyConfigError } from '../errors.js';

/** BLIS HEAD's shipped trained-physics coefficients (alpha[3], beta[11]), µs and dimensionless. */
export const TRAINED_PHYSICS_DEFAULTS: { readonly alpha: readonly number[]; readonly beta: readonly number[] } = {
  alpha: Object.freeze([...defaults.alpha]),
  beta: Object.freeze([...defaults.beta]),
};

/** Fewest and most beta coefficients the trained-physics step formula accepts. */
export const TRAINED_PHYSICS_MIN_BETAS = 7;
export const TRAINED_PHYSICS_MAX_BETAS = 11;

/** How the step formula reads a beta vector of a given length. */
export interface TrainedPhysicsBetas {
  /** Always 11 entries: absent ones are 0, except beta[10] (MoE dispatch), which copies beta[3]. */
  beta: readonly number[];
  /** 9 or more given: prefill compute and KV are weighted apart instead of by one max(). */
  prefillSplit: boolean;
  /** 10 or more given: the same for decode. */
  decodeSplit: boolean;
}

function checkValues(flag: string, values: readonly number[]): void {
  values.forEach((v, i) => {
    if (!Number.isFinite(v) || v < 0) throw new LatencyConfigError(`${flag}: expected finite non-negative trained-physics coefficients, found ${v} at position ${i + 1}`);
  });
}

/** Validates trained-physics coefficients (exactly 3 alphas, 7 to 11 betas, all finite and ≥ 0). */
export function checkTrainedPhysicsCoefficients(alpha: readonly number[], beta: readonly number[]): void {
  if (alpha.length !== 3) throw new LatencyConfigError(`--alpha-coeffs: expected exactly 3 trained-physics alpha coefficients, found ${alpha.length}`);
  checkValues('--alpha-coeffs', alpha);
  if (beta.length < TRAINED_PHYSICS_MIN_BETAS || beta.length > TRAINED_PHYSICS_MAX_BETAS)
    throw new LatencyConfigError(`--beta-coeffs: expected ${TRAINED_PHYSICS_MIN_BETAS} to ${TRAINED_PHYSICS_MAX_BETAS} trained-physics beta coefficients, found ${beta.length}`);
  checkValues('--beta-coeffs', beta);
}

/** Pads a validated beta vector to 11 entries the way BLIS does and records which splits apply. */
export function normalizeBetas(beta: readonly number[]): TrainedPhysicsBetas {
  const out = new Array<number>(TRAINED_PHYSICS_MAX_BETAS).fill(0);
  for (let i = 0; i < beta.length; i++) out[i] = beta[i];
  // Dispatch all-to-all runs over the same links as the TP all-reduce beta[3] calibrates.
  if (beta.length < TRAINED_PHYSICS_MAX_BETAS) out[10] = out[3];
  return { beta: out, prefillSplit: beta.length >= 9, decodeSplit: beta.length >= 10 };
}
