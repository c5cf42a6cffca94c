// The worker tinypool loads when the sweep runs from the TypeScript sources (the workspace's
// launcher runs them under tsx). Node 20 runs `--import` preloads on the main thread only, so a
// worker thread inherits `--conditions=@blis/source` but not tsx's loader: register tsx here
// (a dev dependency of the workspace, the only place the sources run), then load the worker.
const { register } = await import('tsx/esm/api');
register();
const worker = await import('./sweep-worker.ts');
export default worker.default;
