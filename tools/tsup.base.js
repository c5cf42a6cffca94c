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
    splitting: false,
    treeshake: true,
    shims: false,
  });
}
