export type * from './views.js';
export type * from './interfaces.js';
export type { RandomSource } from './random-source.js';
