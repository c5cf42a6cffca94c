import { formatParamPath } from '@blis/policies/internal';

/**
 * A KV tier configuration that validates field by field but cannot be resolved: no model config
 * to size offload blocks, a CPU budget below one block, a model whose KV size is undefined.
 * It names the config path, so the CLI can point at the flag or the YAML key and its line.
 */
export class KVTierConfigError extends Error {
  /** Config path of the offending field, e.g. `['kvOffload', 'cpuBytesToUse']`. */
  readonly path: readonly (string | number)[];
  readonly expected: string;
  readonly found: string;
  constructor(path: readonly (string | number)[], expected: string, found: string) {
    super(`${formatParamPath(path, '')}: expected ${expected}, found ${found}`);
    this.name = 'KVTierConfigError';
    this.path = path;
    this.expected = expected;
    this.found = found;
  }
}
