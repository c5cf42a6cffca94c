import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseYamlInput } from '../src/yaml-input.js';

// The `yaml` library warns through process.emitWarning (a "(node:PID) Warning" line on stderr,
// after our own messages) when a mapping key is a collection; a CLI's stderr holds its own
// located messages only, and the file's meaning is checked by its schema.
describe('parseYamlInput', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a mapping with a collection as a key without a process warning', () => {
    const warn = vi.spyOn(process, 'emitWarning');
    const r = parseYamlInput('routing:\n  policy: weighted\n  ? [a, b]\n  : 1\n', 'policy.yaml');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.yaml.value).toEqual({ routing: { policy: 'weighted', '[ a, b ]': 1 } });
    expect(warn).not.toHaveBeenCalled();
  });
});
