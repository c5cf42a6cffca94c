import { exactKey } from '@blis/cluster/internal';

const MAX_ENTRIES = 256;

/**
 * Scenario configurations (base_config + scenario, before the candidate) this process has
 * already found valid, by their exact JSON: a search sends the same scenarios with every
 * candidate, and validating one (its inline workload spec included) costs about as much as
 * generating its requests again. Only a pass is remembered; a refusal is parsed again, so its
 * issues are always those of the config at hand.
 */
export class ValidConfigs {
  private readonly keys = new Set<string>();

  /** Whether `input` is known valid; otherwise `validate(input)` decides (it throws if not). */
  check(input: unknown, validate: () => void): void {
    const key = exactKey(input);
    if (key !== undefined && this.keys.has(key)) return;
    validate();
    if (key === undefined) return;
    if (this.keys.size >= MAX_ENTRIES) this.keys.delete(this.keys.values().next().value as string);
    this.keys.add(key);
  }

  get size(): number {
    return this.keys.size;
  }
}

/** This process's scenario configurations known valid. */
export const validScenarioBases = new ValidConfigs();
