import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { matchScript, type ScriptedError, type ScriptedReply } from './match.js';
import { MessagesRequest, systemText } from './request.js';
import { describeIssues } from '../lib/index.js';
import type { Script } from './script.js';
import { estimateRequestTokens, PromptCache } from './prompt-cache.js';
import { messageStartEvent, replyMessage, sseFrame, streamEvents, type ReplyMeta } from './wire.js';

/**
 * A local, Messages-API-compatible endpoint serving the scripted offline model, so the
 * real SDK code path (streaming, tool use, retries) runs with no API key and no network.
 */

/** The API's own request size limit. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export type OfflineServerOptions = {
  script: Script;
  host?: string;
  port?: number;
  /** Overrides the script's context_window: a longer request gets the API's "prompt is too long". */
  contextWindow?: number;
  /** Sees each valid request body as received (tests inspect cache_control with it). */
  onRequest?: (body: MessagesRequest) => void;
  /** The prompt cache's clock (ms since the epoch): a test passes its 5 minutes without sleeping. */
  now?: () => number;
};

export type OfflineServer = {
  /** Base URL for the SDK's `baseURL`, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** POST /v1/messages requests received, including ones answered with an error. */
  readonly hits: number;
  /** Responses still open (a stalled stream stays open until its client goes away). */
  readonly inFlight: number;
  close(): Promise<void>;
};

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function sendError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, errorBody(type, message), headers);
}

/** The body as text, or undefined once it exceeds the limit (the rest is drained, not kept). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
  }
  return size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined;
}

function startStream(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...headers });
}

function writeStream(res: ServerResponse, reply: ScriptedReply, meta: ReplyMeta): void {
  let deltas = 0;
  for (const event of streamEvents(reply, meta)) {
    if (event.type === 'content_block_delta') {
      // A stall holds the response open mid-message: the client has to interrupt it.
      if (reply.stallAfterDeltas !== undefined && deltas >= reply.stallAfterDeltas) return;
      deltas += 1;
    }
    res.write(sseFrame(event.type, event));
    if (event.type === 'message_start') res.write(sseFrame('ping', { type: 'ping' }));
  }
  res.end();
}

/** What the API does when it fails after answering 200: an `error` event mid-stream. */
function writeStreamError(res: ServerResponse, error: ScriptedError, meta: ReplyMeta): void {
  res.write(sseFrame('message_start', messageStartEvent(meta)));
  res.end(sseFrame('error', errorBody(error.type, error.message)));
}

export async function startOfflineServer(options: OfflineServerOptions): Promise<OfflineServer> {
  const { script } = options;
  const fired = new Map<number, number>();
  const cache = new PromptCache(options.now === undefined ? {} : { now: options.now });
  let hits = 0;
  let inFlight = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://offline.invalid').pathname;
    if (req.method !== 'POST' || path !== '/v1/messages') {
      req.resume();
      sendError(res, 404, 'not_found_error', `Not found: ${req.method ?? 'GET'} ${path}`);
      return;
    }
    hits += 1;
    const headers = { 'request-id': `req_offline_${hits}` };
    const raw = await readBody(req);
    if (raw === undefined) {
      sendError(res, 413, 'request_too_large', `Request exceeds the maximum size of ${MAX_BODY_BYTES} bytes.`, headers);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      sendError(res, 400, 'invalid_request_error', `Request body is not valid JSON: ${(error as Error).message}`, headers);
      return;
    }
    const parsed = MessagesRequest.safeParse(json);
    if (!parsed.success) {
      sendError(res, 400, 'invalid_request_error', describeIssues(parsed.error, 'body'), headers);
      return;
    }
    const body = parsed.data;
    options.onRequest?.(body);
    // Checked before any rule, as the API checks before generating: the same error, word for word.
    const window = options.contextWindow ?? script.context_window;
    const tokens = window === undefined ? 0 : estimateRequestTokens(body);
    if (window !== undefined && tokens > window) {
      sendError(res, 400, 'invalid_request_error', `prompt is too long: ${tokens} tokens > ${window} maximum`, headers);
      return;
    }

    const tools = body.tools?.map((tool) => tool.name) ?? [];
    const match = matchScript(script, { system: systemText(body), messages: body.messages, tools }, (rule) => fired.get(rule) ?? 0);
    if (match.rule !== undefined) fired.set(match.rule, (fired.get(match.rule) ?? 0) + 1);
    const reply = match.reply;
    const replyHeaders = { ...headers, 'x-offline-rule': match.rule === undefined ? 'fallback' : String(match.rule) };
    const streaming = body.stream === true;
    if (reply.kind === 'error' && !(reply.inStream && streaming)) {
      const retry: Record<string, string> = reply.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(reply.retryAfterMs) };
      sendError(res, reply.status, reply.type, reply.message, { ...replyHeaders, ...retry });
      return;
    }
    // Only a request that got as far as generating reads or writes the prompt cache.
    const meta: ReplyMeta = { id: `msg_offline_${String(hits).padStart(6, '0')}`, model: body.model, input: cache.account(body) };
    if (!streaming && reply.kind === 'reply') {
      sendJson(res, 200, replyMessage(reply, meta), replyHeaders);
      return;
    }
    startStream(res, replyHeaders);
    if (reply.kind === 'error') writeStreamError(res, reply, meta);
    else writeStream(res, reply, meta);
  }

  const server = createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, 'api_error', `Offline server error: ${String(error)}`);
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    get hits() {
      return hits;
    },
    get inFlight() {
      return inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Stalled streams and keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}
