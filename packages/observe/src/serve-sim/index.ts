export { startSimServer } from './sim-server.js';
export type { SimServer, SimServerOptions } from './sim-server.js';
export { LiveSimulation } from './live-simulation.js';
export type { ArrivalHold, LiveEntry, LiveRequest } from './live-simulation.js';
export { PushRequestSource } from './push-source.js';
export { promptWords, wordBlockHashes } from './prompt-tokens.js';
