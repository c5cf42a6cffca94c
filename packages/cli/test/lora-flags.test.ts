import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoraSchema } from '@blis/cluster';
import { describe, expect, it } from 'vitest';
import { loraFields, withLoraScorer } from '../src/config/lora-flags.js';
import type { UsageIssue } from '../src/errors/usage-error.js';

// --lora-* flags over --lora-config over BLIS's defaults.yaml, and --lora-scorer-weight's profile.

const dir = mkdtempSync(join(tmpdir(), 'blis-lora-flags-'));
const file = join(dir, 'lora.yaml');
writeFileSync(file, 'lora:\n  adapters:\n    - {id: sql, rank: 8, base_model: m}\n  adapter_capacity: 1\n  load_bandwidth_bytes_us: 5000\n  step_overhead_tiers:\n    8: {k7: 2}\n');

describe('LoRA configuration from flags and file', () => {
  it('takes a flag over the file, the file over the defaults', () => {
    const issues: UsageIssue[] = [];
    const input = loraFields({ loraConfig: file, loraAdapterCapacity: 3, loraLoadBaseLatencyUs: 7 }, issues);
    expect(issues).toEqual([]);
    const c = LoraSchema.parse(input);
    expect(c).toEqual({
      adapters: [{ id: 'sql', rank: 8, baseModel: 'm' }],
      adapterCapacity: 3, // flag over the file's 1
      loadBaseLatencyUs: 7, // flag over the default 1500
      loadBandwidthBytesUs: 5000, // the file's
      footprintBytesPerRank: 2e6, // the default
      stepOverheadTiers: { '8': { k6: 0, k7: 2 } }, // the file's tiers replace the defaults; k6 defaults to 0
    });
  });

  it('is off without the file and the flags', () => {
    expect(loraFields({}, [])).toBeUndefined();
  });

  it('appends lora-affinity to the default weighted profile, or to the one given', () => {
    expect(withLoraScorer(undefined, 2, 'weighted', true, [])).toEqual([
      { name: 'precise-prefix-cache', weight: 2 },
      { name: 'queue-depth', weight: 1 },
      { name: 'kv-utilization', weight: 1 },
      { name: 'lora-affinity', weight: 2 },
    ]);
    expect(withLoraScorer([{ name: 'queue-depth', weight: 1 }], 0.5, 'weighted', true, [])).toEqual([
      { name: 'queue-depth', weight: 1 },
      { name: 'lora-affinity', weight: 0.5 },
    ]);
    // Not weighted: unchanged (with a warning unless quiet).
    expect(withLoraScorer(undefined, 2, 'round-robin', true, [])).toBeUndefined();
  });
});
