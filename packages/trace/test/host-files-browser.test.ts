import { JsonlFileSink, MemorySink, TraceOutputError, parseTrace, readTraceFile } from '@blis/trace';
import { describe, expect, it, vi } from 'vitest';
import * as browserFiles from '../src/host/files.browser.js';

// The package as a browser bundle sees it: `#host-files` resolved to the browser stand-in.
// (The mock replaces the Node host module itself, so importActual reaches the real one.)
vi.mock('#host-files', () => import('../src/host/files.browser.js'));
const nodeFiles = await vi.importActual<typeof import('../src/host/files.js')>('../src/host/files.js');

describe('@blis/trace without file access (browser build)', () => {
  it('the browser host has every export of the Node host, plus its error class', () => {
    expect(nodeFiles.openSync).not.toBe(browserFiles.openSync);
    expect(Object.keys(browserFiles).sort()).toEqual([...Object.keys(nodeFiles), 'FileAccessUnavailable'].sort());
  });

  it('each file operation throws FileAccessUnavailable naming the package and the path', () => {
    expect(() => browserFiles.openSync('trace.jsonl', 'w')).toThrow(
      '@blis/trace cannot open "trace.jsonl": reading and writing files is not available in the browser; pass the content instead',
    );
    expect(() => browserFiles.allocBytes(16)).toThrow(browserFiles.FileAccessUnavailable);
  });

  it('memory sinks and parsing a text need no file', () => {
    const sink = new MemorySink();
    sink.write('{"t":"x"}\n');
    expect(sink.text()).toBe('{"t":"x"}\n');
    expect(parseTrace('')).toEqual([]);
  });

  it('the file sink and reader fail clearly', () => {
    expect(() => new JsonlFileSink('trace.jsonl')).toThrow(TraceOutputError);
    expect(() => new JsonlFileSink('trace.jsonl')).toThrow(/cannot write the decision trace to trace\.jsonl: .*not available in the browser/);
    expect(() => readTraceFile('trace.jsonl').next()).toThrow(browserFiles.FileAccessUnavailable);
  });
});
