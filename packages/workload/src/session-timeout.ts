/** BLIS's deadline for session rounds whose client sets no timeout: 300 s. */
export const DEFAULT_SESSION_TIMEOUT_US = 300_000_000;
