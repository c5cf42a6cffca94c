// The one build configuration every library package reuses (ESM + CJS + declarations).
import { defineConfig } from 'tsup';

/** @param {{ entry: string[] | Record<string,string>, banner?: string }} opts */
export function libraryConfig(opts) {
  return defineConfig({
    entry: opts.entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    // With a second entry (./testing), code both entries use goes into shared chunks, so the two
    // share one module instance (one default policy registry, one PolicyError class), not copies.
    splitting: !Array.isArray(opts.entry) && Object.keys(opts.entry).length > 1,
    treeshake: true,
    shims: false,
  });
}
