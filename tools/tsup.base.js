// The one build configuration every library package reuses (ESM + CJS + declarations).
import { defineConfig } from 'tsup';

/**
 * `hostFiles`: the package reads or writes files through `#host-files` (package.json `imports`),
 * which must stay an import in dist so that the consumer's resolver picks the Node or the
 * browser host module; both are built as extra entries under dist/host/.
 * @param {{ entry: string[] | Record<string,string>, banner?: string, hostFiles?: boolean }} opts
 */
export function libraryConfig(opts) {
  const host = { 'host/files': 'src/host/files.ts', 'host/files.browser': 'src/host/files.browser.ts' };
  const named = Array.isArray(opts.entry) ? Object.fromEntries(opts.entry.map((e) => [e.replace(/^src\//, '').replace(/\.ts$/, ''), e])) : opts.entry;
  return defineConfig({
    entry: opts.hostFiles ? { ...named, ...host } : opts.entry,
    external: opts.hostFiles ? ['#host-files'] : [],
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
