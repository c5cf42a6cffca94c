import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulationConfigInput, SimulationRuntime } from '@blis/cluster';
import { type ParsedCompletionRequest, BadRequestError, parseCompletionRequest } from './openai-request.js';
import { errorBody, usage } from './openai-response.js';
import { prometheusText } from './metrics-exposition.js';
import { promptWords, wordBlockHashes } from './prompt-tokens.js';
import { type LiveEntry, LiveSimulation } from './live-simulation.js';
import { DONE, type OpenStream, flush } from './open-stream.js';
import { WakeTimer } from './wake-timer.js';

export interface SimServerOptions {
  /** The simulated deployment (its `workload` is ignored: requests come over HTTP). */
  config: SimulationConfigInput;
  /** Custom policies and the like, as `simulate()` of `@blis/cluster` takes them. */
  runtime?: Omit<SimulationRuntime, 'source'>;
  /** Default 127.0.0.1: the server is for tests and demos on this machine. */
  host?: string;
  /** Default 0: any free port (read it from {@link SimServer.url}). */
  port?: number;
  /** Answer length when the client sets no `max_tokens` (default 256). */
  defaultOutputTokens?: number;
  /** Longest answer; a longer `max_tokens` stops here with finish_reason `stop` (default 4096). */
  maxOutputTokens?: number;
  /** Model name `/v1/models` lists (default: the config's model, or `blis-sim`). */
  servedModelName?: string;
  /**
   * How long the simulation waits for a request's body once its headers are in (default 5 ms):
   * within it the request arrives at its headers, past it at the end of its body.
   */
  bodyWaitMs?: number;
  /** Called as each response ends, with what the simulation said about the request. */
  onResponseEnd?: (entry: LiveEntry) => void;
}

export interface SimServer {
  readonly url: string;
  /** The simulation behind the server, for tests and tools that want its view. */
  readonly simulation: LiveSimulation;
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible server (`/v1/completions`, `/v1/chat/completions`, `/v1/models`,
 * `/metrics`, `/health`) whose tokens leave on the simulator's timeline: each request is added to
 * a {@link LiveSimulation} at its arrival on the server's clock (when its headers were in), the
 * simulation advances as the clock does, and each token is written when the simulation says it is
 * visible. `blis observe` against it, then `blis replay` of what it recorded, shows the whole
 * calibration loop on one machine.
 */
export async function startSimServer(opts: SimServerOptions): Promise<SimServer> {
  const blockSize = opts.config.blockSizeTokens ?? 16;
  const live = new LiveSimulation(opts.config, opts.runtime);
  const defaultOut = opts.defaultOutputTokens ?? 256;
  const maxOut = opts.maxOutputTokens ?? 4096;
  const bodyWaitMs = opts.bodyWaitMs ?? 5;
  const modelName = opts.servedModelName ?? opts.config.model ?? 'blis-sim';
  const t0 = performance.now();
  const nowUs = () => Math.round((performance.now() - t0) * 1000);
  const streams = new Map<string, OpenStream>();
  let closing = false;

  // One wake-up for everything: the earlier of the simulation's next event and the next token due.
  const pump = (): void => {
    wake.cancel();
    if (closing) return;
    const now = nowUs();
    live.advance(now);
    let next = live.nextEventUs;
    for (const s of streams.values()) {
      const due = flush(s, now);
      if (due === DONE) {
        opts.onResponseEnd?.(s.entry);
        streams.delete(s.entry.id);
        live.forget(s.entry.id);
      } else if (due < next) next = due;
    }
    wake.wakeBy(next);
  };
  const wake = new WakeTimer(nowUs, pump);

  const serve = (api: 'completions' | 'chat', req: IncomingMessage, res: ServerResponse, body: unknown, arrivedUs: number): void => {
    let parsed: ParsedCompletionRequest;
    try {
      parsed = parseCompletionRequest(api, body);
    } catch (e) {
      if (!(e instanceof BadRequestError)) throw e;
      sendJson(res, 400, errorBody(e.message, 'BadRequestError', 400));
      return;
    }
    const words = promptWords(parsed.prompt);
    if (words.length === 0) {
      sendJson(res, 400, errorBody('the prompt has no tokens', 'BadRequestError', 400));
      return;
    }
    const wanted = parsed.maxTokens ?? defaultOut;
    const outputTokens = Math.max(1, Math.min(wanted, maxOut));
    let id = header(req, 'x-request-id') || randomUUID();
    // A client reusing an id still in flight gets its own request.
    if (streams.has(id)) id = `${id}-${randomUUID()}`;
    const entry = live.add(
      {
        id,
        inputTokens: words.length,
        outputTokens,
        blockHashes: wordBlockHashes(words, blockSize),
        clientId: '',
        tenantId: header(req, 'x-gateway-inference-fairness-id'),
        sloClass: header(req, 'x-gateway-inference-objective'),
        sessionId: '',
        roundIndex: 0,
        prefixGroup: '',
        prefixLength: 0,
        streaming: parsed.stream,
        deadlineUs: 0,
        sloTargetUs: 0,
        networkDelayUs: 0,
      },
      arrivedUs,
    );
    const s: OpenStream = {
      entry,
      req: parsed,
      res,
      sent: 0,
      text: '',
      finish: outputTokens === wanted ? 'length' : 'stop',
      responseId: `${api === 'chat' ? 'chatcmpl' : 'cmpl'}-${id}`,
      created: Math.floor(Date.now() / 1000),
      usage: usage(words.length, outputTokens),
    };
    streams.set(id, s);
    res.on('close', () => {
      if (streams.get(id) === s && !res.writableEnded) streams.delete(id);
    });
  };

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && (path === '/health' || path === '/ping')) return sendJson(res, 200, { status: 'ok' });
    if (req.method === 'GET' && path === '/v1/models')
      return sendJson(res, 200, { object: 'list', data: [{ id: modelName, object: 'model', created: 0, owned_by: 'blis' }] });
    if (req.method === 'GET' && path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      const now = nowUs();
      live.advance(now);
      return void res.end(prometheusText(live, now, blockSize));
    }
    const api = path === '/v1/completions' ? 'completions' : path === '/v1/chat/completions' ? 'chat' : undefined;
    if (api === undefined || req.method !== 'POST') return sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, 'NotFoundError', 404));
    // The request arrives now, with its headers: reading the body and parsing it are the
    // reference server's own work (a body of a few thousand words comes in several reads, each
    // waiting its turn on a busy event loop), so the simulation is held before this instant
    // until the request can be added at it.
    // A body slower than `bodyWaitMs` (a client trickling it) must not stall every other
    // stream's tokens: the hold lapses and that request arrives when its body is in.
    const headersUs = nowUs();
    const hold = live.hold(headersUs);
    let lapsed = false;
    const lapse = setTimeout(() => {
      lapsed = true;
      hold.release();
      pump();
    }, bodyWaitMs);
    const release = () => {
      clearTimeout(lapse);
      hold.release();
    };
    req.once('close', release);
    readJson(req)
      .then((body) => {
        release();
        try {
          serve(api, req, res, body, lapsed ? nowUs() : headersUs);
        } finally {
          pump();
        }
      })
      .catch((e: unknown) => {
        release();
        sendJson(res, 400, errorBody(`the body is not JSON: ${(e as Error).message}`, 'BadRequestError', 400));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    simulation: live,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        wake.cancel();
        for (const s of streams.values()) s.res.destroy();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  if (res.destroyed) return;
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

/** The parsed body. */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e);
      }
    });
  });
}
