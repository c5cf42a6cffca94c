// The requests the sandbox tests send: a JavaScript routing module evaluated on one small
// scenario, with the route body the test needs.

export const moduleRequest = (text: string) => ({
  protocol: 'blis-eval/1',
  candidate: { kind: 'policy-module', language: 'javascript', text },
  base_config: { numInstances: 2 },
  scenarios: [{ id: 'only', workload: { kind: 'synthetic', numRequests: 20, rate: 5 }, seeds: [3] }],
  objectives: { weights: { p99_ttft: 1 } },
  trace: 'none',
});

/** A routing module whose `route(req)` body is `route`. */
export const routerModule = (route: string) => `export default () => ({ name: 'r', route(req) { ${route} } });`;

/** A module that routes everything to the first instance. */
export const FIRST = routerModule("return { instance: 0, reason: 'first' };");
