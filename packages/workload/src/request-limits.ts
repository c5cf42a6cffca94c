/**
 * Tokens of one request, prompt or output (2^24): above the longest context window sold today
 * (10M tokens). Past it a request's block hashes alone would need more memory than a machine has (a
 * trace row of 10^11 tokens asked for a 50 GB array), so a workload refuses it where it is made.
 */
export const MAX_TOKENS_PER_REQUEST = 16_777_216;

/** Clients of a workload spec (10,000): each is a generator of its own; real mixes have tens. */
export const MAX_SPEC_CLIENTS = 10_000;

/**
 * Requests an `inference_perf` section may plan (10^7): BLIS's generator, which ours follows draw
 * for draw, makes every first arrival before the run starts (about 100 bytes each here).
 */
export const MAX_INFERENCE_PERF_REQUESTS = 10_000_000;

/**
 * Requests the lifecycle windows of a spec with per-window overrides may plan (10^8, the
 * requests limit): BLIS's per-window generator, which ours follows, draws every gap of a window
 * before its first arrival (about 10 ns each here).
 */
export const MAX_WINDOW_REQUESTS = 100_000_000;
