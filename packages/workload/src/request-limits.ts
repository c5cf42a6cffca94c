/**
 * Most tokens in one request's prompt or answer, from a spec or a trace (10 million, past every
 * model's context window): each prompt token becomes block hashes in memory, so a length of 10^15
 * would ask for petabytes.
 */
export const MAX_REQUEST_TOKENS = 10_000_000;
