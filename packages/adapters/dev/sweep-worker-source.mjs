// The worker tinypool loads when a sweep runs from the TypeScript sources: only in a workspace
// checkout (the package publishes dist/, where tinypool loads dist/sweep-worker.js instead), whose
// launcher runs the CLI with `--import tsx`. Node 20 runs `--import` preloads on the main thread
// only, so a worker thread inherits `--conditions=@blis/source` but not tsx: register tsx in
// this thread (the workspace's dev dependency, as the launcher uses it), then load the worker.
const { register } = await import('tsx/esm/api');
register();
const worker = await import('../src/sweep/sweep-worker.ts');
export default worker.default;
