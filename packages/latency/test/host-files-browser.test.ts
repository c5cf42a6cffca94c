import { LatencyConfigError, hardwareSpec, knownHardware, loadModelConfig, resolveLatency } from '@blis/latency';
import { describe, expect, it, vi } from 'vitest';
import * as browserFiles from '../src/host/files.browser.js';

// The package as a browser bundle sees it: `#host-files` resolved to the browser stand-in.
// (The mock replaces the Node host module itself, so importActual reaches the real one.)
vi.mock('#host-files', () => import('../src/host/files.browser.js'));
const nodeFiles = await vi.importActual<typeof import('../src/host/files.js')>('../src/host/files.js');

describe('@blis/latency without file access (browser build)', () => {
  it('the browser host has every export of the Node host, plus its error class', () => {
    expect(nodeFiles.readFileSync).not.toBe(browserFiles.readFileSync);
    expect(Object.keys(browserFiles).sort()).toEqual([...Object.keys(nodeFiles), 'FileAccessUnavailable'].sort());
  });

  it('each file operation throws FileAccessUnavailable naming the package, the path and the way out', () => {
    for (const op of [() => browserFiles.readFileSync('hw.json', 'utf8'), () => browserFiles.statSync('models/x'), () => browserFiles.join('models/x', 'config.json')]) {
      expect(op).toThrow(browserFiles.FileAccessUnavailable);
    }
    expect(() => browserFiles.readFileSync('hw.json')).toThrow(
      '@blis/latency cannot read "hw.json": reading and writing files is not available in the browser; pass the content instead',
    );
  });

  it('the catalogue and the models need no file', () => {
    expect(knownHardware().length).toBeGreaterThan(0);
    expect(hardwareSpec(knownHardware()[0]).name).toBe(knownHardware()[0]);
    const r = resolveLatency({ model: 'qwen/qwen3-14b' });
    expect(r.model.queueingTime(512)).toBeGreaterThanOrEqual(0);
    expect(() => resolveLatency({ model: 'qwen/qwen3-14b', modelConfigPath: 'models/qwen' })).toThrow(/not available in the browser/);
  });

  it('the file-reading entries fail with their own error, carrying the reason', () => {
    expect(() => hardwareSpec('H100', 'hw.json')).toThrow(LatencyConfigError);
    expect(() => hardwareSpec('H100', 'hw.json')).toThrow(/hw\.json: expected a readable hardware_config\.json, found .*not available in the browser/);
    expect(() => loadModelConfig('models/x')).toThrow(/models\/x: expected a readable model config .*, found .*not available in the browser/);
  });
});
