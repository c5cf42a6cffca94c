/**
 * `@blis/workload/testing`: fast-check arbitraries for workload specs, request streams and
 * traces, for property suites written against the simulator. fast-check is a peer dependency:
 * install it (`npm i -D fast-check`) to use this entry. Browser-safe (no Node built-ins).
 *
 * @module
 */
export { arrivalArb, distributionArb, goodputTargetsArb, multimodalArb, reasonRatioArb, type SpecArbOptions, specArb } from './spec-arbitraries.js';
export { arraySource, drain, type RequestStreamOptions, requestStreamArb } from './request-arbitraries.js';
export { azureTraceArb, type GeneratedTrace, mooncakeTraceArb, type TraceArbOptions, traceV2Arb, type TraceV2Row } from './trace-arbitraries.js';
