export type { DecisionObserver } from './decision-observer.js';
