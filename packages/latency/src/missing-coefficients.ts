import { quoteExcerpt } from '@blis/policies/internal';
import { coefficientsFor } from './catalogue.js';
import { LatencyConfigError } from './errors.js';

// What to tell the user when the catalogue has no trained coefficients for what they asked,
// naming the flag to change and the choices that do exist (rather than "unknown model" for a
// model the catalogue knows on other hardware).

const lower = (s: string) => s.toLowerCase();

/** `vllm/vllm-openai:v0.8.4` as a user types it for `--vllm-version`: `0.8.4`. */
function shortVersion(image: string): string {
  return image.replace(/^.*:v?/, '');
}

/** The vLLM versions trained for (model, GPU, TP), as `--vllm-version` accepts them. */
export function trainedVersions(modelId: string, gpu: string, tp: number): string[] {
  const found = coefficientsFor(modelId).filter((c) => lower(c.gpu) === lower(gpu) && c.tp === tp);
  return [...new Set(found.map((c) => shortVersion(c.vllmVersion)))].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** The (GPU, TP) pairs the catalogue has trained coefficients for, e.g. `H100 TP1, H100 TP2`. */
function trainedDeployments(modelId: string): string {
  const pairs = [...new Set(coefficientsFor(modelId).map((c) => `${c.gpu} TP${c.tp}`))];
  return pairs.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).join(', ');
}

/** `--vllm-version` names a version the catalogue has no coefficients for on this deployment. */
export function unknownVllmVersion(modelId: string, gpu: string, tp: number, version: string): LatencyConfigError {
  const versions = trainedVersions(modelId, gpu, tp);
  const found = quoteExcerpt(version);
  if (versions.length > 0) return new LatencyConfigError(`--vllm-version: expected a vLLM version trained for ${modelId} on ${gpu} TP${tp} (${versions.join(', ')}), found ${found}`);
  const elsewhere = trainedDeployments(modelId);
  return new LatencyConfigError(
    elsewhere === ''
      ? `--vllm-version: expected no version (the catalogue has no trained coefficients for ${modelId}; roofline and trained-physics need none), found ${found}`
      : `--vllm-version: expected a deployment with trained coefficients for ${modelId} (${elsewhere}), found ${found} on ${gpu} TP${tp}`,
  );
}

/**
 * A model the catalogue knows (it has trained coefficients) but not on this GPU and TP, and with
 * no Hugging Face config for roofline: blames `--hardware` or `--tp`, whichever the user set.
 */
export function noCoefficientsHere(modelId: string, gpu: string, tp: number, hardwareGiven: boolean): LatencyConfigError | undefined {
  const elsewhere = trainedDeployments(modelId);
  if (elsewhere === '') return undefined;
  const gpuKnown = coefficientsFor(modelId).some((c) => lower(c.gpu) === lower(gpu));
  const flag = hardwareGiven && !gpuKnown ? '--hardware' : '--tp';
  const found = flag === '--hardware' ? quoteExcerpt(gpu) : `${tp} (on ${gpu})`;
  return new LatencyConfigError(
    `${flag}: expected a deployment with trained coefficients for ${modelId} (${elsewhere}), or --model-config with its Hugging Face config.json for roofline, found ${found}`,
  );
}
