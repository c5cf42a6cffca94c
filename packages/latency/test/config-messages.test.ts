import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hardwareSpec, parseModelConfig } from '../src/index.js';

// A bad config.json or hardware_config.json is named by file and field, then what was expected
// and what was found, in the words every other reader uses (never zod's own).

const DENSE = { num_hidden_layers: 32, hidden_size: 4096, num_attention_heads: 32 };

describe('model config messages', () => {
  it('names the field, what was expected and what was found', () => {
    expect(() => parseModelConfig({ ...DENSE, num_hidden_layers: 'many' }, 'cfg.json')).toThrow('cfg.json num_hidden_layers: expected a number, found "many"');
    expect(() => parseModelConfig({ ...DENSE, hidden_size: 0 }, 'cfg.json')).toThrow('cfg.json hidden_size: expected a number > 0, found 0');
    expect(() => parseModelConfig({ ...DENSE, num_attention_heads: 2.5 })).toThrow('config.json num_attention_heads: expected an integer, found 2.5');
  });

  it('places a multimodal model field under text_config, and quotes a long value as an excerpt', () => {
    expect(() => parseModelConfig({ text_config: { ...DENSE, hidden_size: 'x'.repeat(500) } }, 'mm.json')).toThrow(
      `mm.json text_config.hidden_size: expected a number, found "${'x'.repeat(60)}…" (500 characters)`,
    );
  });
});

describe('hardware config messages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blis-hw-'));
  const file = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const GPU = { TFlopsPeak: 989, BwPeakTBs: 3.35, mfuPrefill: 0.5, mfuDecode: 0.3, MemoryGiB: 80 };

  it('names the GPU and field of a bad entry', () => {
    const bad = file('hw.json', { X1: { ...GPU, mfuDecode: 1.5 } });
    expect(() => hardwareSpec('X1', bad)).toThrow(`${bad} X1.mfuDecode: expected a number <= 1, found 1.5`);
    const missing = file('hw2.json', { X2: { ...GPU, BwPeakTBs: undefined } });
    expect(() => hardwareSpec('X2', missing)).toThrow(`${missing} X2.BwPeakTBs: expected a number, found nothing (the field is missing)`);
    const list = file('hw3.json', [GPU]);
    expect(() => hardwareSpec('X3', list)).toThrow(`${list}: expected a mapping, found a list of 1 item(s)`);
  });
});
