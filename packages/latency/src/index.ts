export * from './latency-model.js';
