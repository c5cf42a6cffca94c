// @blis/observe: the network side of BLIS, kept out of the simulation packages.

// --- calibrate: pairing, statistics, grades, report ---

// --- recorder: `blis observe` (HTTP client, SSE timing, TraceV2 `mode: real` writer, /metrics scrape) ---

// --- serve-sim: the simulator-backed OpenAI-compatible reference server ---
export { startSimServer, LiveSimulation, PushRequestSource, promptWords, wordBlockHashes } from './serve-sim/index.js';
export type { SimServer, SimServerOptions, LiveEntry, LiveRequest } from './serve-sim/index.js';
