import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type Behaviour = (req: SeenRequest, res: ServerResponse) => void | Promise<void>;

/** An OpenAI-like server on 127.0.0.1 (port 0) whose answer to each POST the test chooses. */
export interface FakeServer {
  url: string;
  seen: SeenRequest[];
  /** Most requests in flight at once (calibration included). */
  maxInFlight: number;
  close(): Promise<void>;
}

export async function startFakeServer(behaviour: Behaviour, metrics?: () => string): Promise<FakeServer> {
  const state = { seen: [] as SeenRequest[], inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (req.method === 'GET') {
        if (req.url === '/metrics' && metrics !== undefined) {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(metrics());
        } else res.writeHead(404).end('not found');
        return;
      }
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw === '' ? {} : JSON.parse(raw) };
      state.seen.push(seen);
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      res.on('close', () => {
        state.inFlight--;
      });
      void behaviour(seen, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen: state.seen,
    get maxInFlight() {
      return state.maxInFlight;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Words in a prompt (or chat message): the fake tokenizer counts one token per word. */
export function promptWords(body: Record<string, unknown>): number {
  const text = typeof body.prompt === 'string' ? body.prompt : ((body.messages as { content: string }[] | undefined)?.[0]?.content ?? '');
  return text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
}

/** A well-behaved server: streams max_tokens chunks (plus a usage chunk) or answers in one JSON. */
export const openAiLike: Behaviour = async (req, res) => {
  const n = Number(req.body.max_tokens ?? 1);
  const usage = { prompt_tokens: promptWords(req.body), completion_tokens: n, total_tokens: promptWords(req.body) + n };
  const chat = req.url === '/v1/chat/completions';
  const choice = (text: string, finish: string | null) => (chat ? { index: 0, delta: { content: text }, finish_reason: finish } : { index: 0, text, finish_reason: finish });
  if (req.body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', choices: [chat ? { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'length' } : { index: 0, text: 'hi', finish_reason: 'length' }], usage }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let i = 0; i < n; i++) {
    res.write(`data: ${JSON.stringify({ choices: [choice('w', i === n - 1 ? 'length' : null)] })}\n\n`);
    await new Promise((r) => setImmediate(r));
  }
  const withUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  if (withUsage) res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
};
