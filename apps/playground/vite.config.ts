import { defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources (`@blis/source`), so the playground needs
// no package build first; `browser` picks the packages' browser entry points where they have one.
const conditions = ['@blis/source', 'browser', 'module', 'import', 'default'];

export default defineConfig({
  base: './',
  resolve: { conditions },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    rollupOptions: {
      // zod's sources carry comments beside its @__PURE__ annotations; Rollup drops them, harmlessly.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});
