import { request } from 'undici';

/**
 * Whether anything answers HTTP at `serverUrl`: `GET /v1/models`, where any status counts (a
 * gateway may not serve that path). Resolves to undefined when it answers, or to the transport
 * error, so a run can refuse up front instead of recording every request as an error.
 */
export async function probeServer(serverUrl: string, timeoutMs = 10_000): Promise<string | undefined> {
  try {
    const res = await request(`${serverUrl.replace(/\/+$/, '')}/v1/models`, { method: 'GET', signal: AbortSignal.timeout(timeoutMs) });
    await res.body.dump();
    return undefined;
  } catch (e) {
    const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
    // A server that accepts the connection and never answers (not HTTP, or stuck).
    if (err.name === 'TimeoutError') return `no HTTP answer to GET /v1/models within ${timeoutMs / 1000} s`;
    const code = err.code ?? err.cause?.code;
    return `${code !== undefined ? `${code}: ` : ''}${err.cause?.message ?? err.message ?? String(e)}`;
  }
}
