import {
  TraceReadError,
  WorkloadSpecError,
  createRequestSource,
  loadWorkloadSpec,
  openTrace,
  parseWorkloadSpec,
  writeTraceV2,
} from '@blis/workload';
import { empiricalValues } from '@blis/workload/internal';
import { describe, expect, it, vi } from 'vitest';
import * as browserFiles from '../src/host/files.browser.js';

// The package as a browser bundle sees it: `#host-files` resolved to the browser stand-in.
// (The mock replaces the Node host module itself, so importActual reaches the real one.)
vi.mock('#host-files', () => import('../src/host/files.browser.js'));
const nodeFiles = await vi.importActual<typeof import('../src/host/files.js')>('../src/host/files.js');

const SPEC = {
  version: '2',
  seed: 3,
  aggregate_rate: 10,
  num_requests: 25,
  clients: [
    {
      id: 'a',
      rate_fraction: 1,
      arrival: { process: 'poisson' },
      input_distribution: { type: 'empirical', params: { values: [100, 200, 300] } },
      output_distribution: { type: 'constant', params: { value: 20 } },
    },
  ],
};

describe('@blis/workload without file access (browser build)', () => {
  it('the browser host has every export of the Node host, plus its error class', () => {
    expect(nodeFiles.readFileSync).not.toBe(browserFiles.readFileSync);
    expect(Object.keys(browserFiles).sort()).toEqual([...Object.keys(nodeFiles), 'FileAccessUnavailable'].sort());
  });

  it('each file operation throws FileAccessUnavailable naming the package and the path', () => {
    expect(() => browserFiles.openSync('t.csv', 'r')).toThrow(browserFiles.FileAccessUnavailable);
    expect(() => browserFiles.readFileSync('spec.yaml', 'utf8')).toThrow(
      '@blis/workload cannot read "spec.yaml": reading and writing files is not available in the browser; pass the content instead',
    );
    expect(() => new browserFiles.StringDecoder('utf8')).toThrow(browserFiles.FileAccessUnavailable);
  });

  it('inline specs and generated request streams need no file', () => {
    const source = createRequestSource(parseWorkloadSpec(SPEC));
    let n = 0;
    for (let r = source.next(); r !== undefined; r = source.next()) n++;
    expect(n).toBe(25);
    expect(empiricalValues({ values: [1, 2] })).toEqual([1, 2]);
  });

  it('the file-reading entries fail with their own error, carrying the reason', () => {
    expect(() => loadWorkloadSpec('spec.yaml')).toThrow(WorkloadSpecError);
    expect(() => loadWorkloadSpec('spec.yaml')).toThrow(/spec\.yaml.*FileAccessUnavailable: @blis\/workload cannot read "spec\.yaml"/);
    expect(() => openTrace('t.csv')).toThrow(TraceReadError);
    expect(() => openTrace('t.csv', { format: 'azure' })).toThrow(/not available in the browser/);
    expect(() => openTrace('t.yaml')).toThrow(/not available in the browser/);
    expect(() => empiricalValues({ file: 'lengths.csv' }, 'data')).toThrow(/not available in the browser/);
    const empty = createRequestSource(parseWorkloadSpec({ ...SPEC, num_requests: 1 }));
    expect(() => writeTraceV2(empty, 't.yaml', 't.csv')).toThrow(browserFiles.FileAccessUnavailable);
  });
});
