import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/**
 * `fetch` for the model SDK, over node:http. Node's own fetch (undici) parses responses with a
 * WebAssembly build of llhttp, which costs an agent process about 9 MiB from its first model
 * call on, kept for as long as it runs; node:http parses with the llhttp built into Node.
 * It does what the SDK asks of fetch and no more: a method, headers, a string or byte body,
 * an abort signal; no redirects, no content decoding (nothing asks for an encoding).
 */

/** Connections are kept between a turn's requests, as fetch keeps them. */
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

/** Statuses whose response has no body (a Response with one would be refused). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export async function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('httpFetch takes a URL, not a Request');
  const url = new URL(input);
  const send = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
  if (!send) throw new TypeError(`httpFetch cannot fetch ${url.protocol} URLs`);
  const body = bodyOf(init.body);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  init.signal?.throwIfAborted();
  return new Promise<Response>((resolve, reject) => {
    // node:http ends the request on the signal with an AbortError, the error fetch gives and
    // the SDK looks for; endOnAbort does the same for a response whose body is still coming.
    const signal = init.signal ?? undefined;
    const request = send(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'], signal }, (response) => {
      if (signal) endOnAbort(response, signal);
      resolve(responseOf(response));
    });
    // `on`, not `once`: an abort after the response began is an error here too, after this
    // promise settled, and an error event nobody listens to would end the process.
    request.on('error', reject);
    request.end(body);
  });
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('httpFetch sends only string or byte bodies');
}

/** A body still streaming fails with the abort's reason, as fetch's does, not "socket closed". */
function endOnAbort(response: IncomingMessage, signal: AbortSignal): void {
  const abort = () => response.destroy(signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError'));
  signal.addEventListener('abort', abort, { once: true });
  response.once('close', () => signal.removeEventListener('abort', abort));
}

function responseOf(response: IncomingMessage): Response {
  const status = response.statusCode ?? 0;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const [name, value] = [raw[i], raw[i + 1]];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  if (NO_BODY.has(status)) {
    response.resume();
    return new Response(null, { status, statusText: response.statusMessage, headers });
  }
  // The web stream reads the response as its reader pulls: an unread stream holds the socket
  // back, as fetch's does, until the SDK reads or cancels it.
  return new Response(Readable.toWeb(response), { status, statusText: response.statusMessage, headers });
}
