/**
 * Tokens of one request, prompt or output (2^24): above the longest context window sold today
 * (10M tokens). Past it a request's block hashes alone would need more memory than a machine has (a
 * trace row of 10^11 tokens asked for a 50 GB array), so a workload refuses it where it is made.
 */
export const MAX_TOKENS_PER_REQUEST = 16_777_216;
