// The evaluation sandbox's thread when `blis evaluate` runs from the TypeScript sources (a
// workspace checkout; the package publishes dist/evaluate-sandbox-thread.js instead). As for the
// sweep worker: register tsx in this thread, then load the thread's module.
const { register } = await import('tsx/esm/api');
register();
await import('../src/evaluate/sandbox/sandbox-thread.ts');
