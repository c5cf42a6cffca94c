import type { EncodeDecider } from '../interfaces.js';
import type { RequestView } from '../views.js';

/** The built-in encode deciders, BLIS's `--encode-decider` values (default `never`). */
export const ENCODE_DECIDER_NAMES = ['never', 'always', 'multimodal'] as const;
export type EncodeDeciderName = (typeof ENCODE_DECIDER_NAMES)[number];

/** Whether a request carries any non-text modality (an image, audio or video token). */
export function isMultimodal(request: RequestView): boolean {
  const m = request.modalities;
  return m !== undefined && (m.image > 0 || m.audio > 0 || m.video > 0);
}

/** Never encodes: the encode pool is never used (BLIS's default). */
export function createNeverEncode(): EncodeDecider {
  return { name: 'never', shouldEncode: () => false };
}

/** Encodes every request, multimodal or not. */
export function createAlwaysEncode(): EncodeDecider {
  return { name: 'always', shouldEncode: () => true };
}

/**
 * Encodes a request that carries an image, audio or video token, as llm-d's
 * AlwaysDisaggMultimodalDecider does for requests with multimodal content.
 */
export function createMultimodalEncode(): EncodeDecider {
  return { name: 'multimodal', shouldEncode: (request) => isMultimodal(request) };
}

/** The built-in encode decider of that name; undefined for any other name. */
export function createEncodeDecider(name: string): EncodeDecider | undefined {
  switch (name) {
    case 'never':
      return createNeverEncode();
    case 'always':
      return createAlwaysEncode();
    case 'multimodal':
      return createMultimodalEncode();
    default:
      return undefined;
  }
}
