import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpFetch } from '../../src/model/http-fetch.js';

/** What the server saw of the last request. */
let seen: { method: string; headers: IncomingMessage['headers']; body: string } | undefined;
/** Responses parked by /hang, ended by the test. */
const hanging = new Set<ServerResponse>();

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    seen = { method: req.method ?? '', headers: req.headers, body };
    if (req.url === '/echo') {
      res.writeHead(201, 'Made', [['content-type', 'application/json'], ['x-twice', 'a'], ['x-twice', 'b']]);
      res.end(JSON.stringify({ got: body }));
    } else if (req.url === '/empty') {
      res.writeHead(204).end();
    } else if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      res.end('data: two\n\n');
    } else if (req.url === '/hang') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      hanging.add(res);
    } else {
      res.writeHead(404).end('no such thing');
    }
  });
}

describe('httpFetch, the model SDK’s fetch over node:http', () => {
  let server: Server;
  let base: string;

  before(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('sends the method, headers and body; returns status, headers and body as fetch does', async () => {
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'k' });
    const response = await httpFetch(`${base}/echo`, { method: 'POST', headers, body: '{"a":1}' });
    assert.equal(response.status, 201);
    assert.equal(response.statusText, 'Made');
    assert.equal(response.ok, true);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('x-twice'), 'a, b');
    assert.deepEqual(await response.json(), { got: '{"a":1}' });
    assert.equal(seen?.method, 'POST');
    assert.equal(seen?.headers['x-api-key'], 'k');
  });

  test('takes a URL object, plain-object headers and a byte body', async () => {
    const response = await httpFetch(new URL('/echo', base), { method: 'PUT', headers: { 'x-one': '1' }, body: new TextEncoder().encode('bytes') });
    assert.deepEqual(await response.json(), { got: 'bytes' });
    assert.equal(seen?.method, 'PUT');
    assert.equal(seen?.headers['x-one'], '1');
  });

  test('a body-less status gives a null body; an error status is a response, not a rejection', async () => {
    const empty = await httpFetch(`${base}/empty`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
    const missing = await httpFetch(`${base}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(missing.ok, false);
    assert.equal(await missing.text(), 'no such thing');
  });

  test('streams the body as it arrives', async () => {
    const response = await httpFetch(`${base}/stream`);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of response.body ?? []) text += decoder.decode(chunk, { stream: true });
    assert.equal(text, 'data: one\n\ndata: two\n\n');
  });

  test('an abort rejects with an AbortError, before the response and while its body streams', async () => {
    const early = new AbortController();
    early.abort();
    await assert.rejects(httpFetch(`${base}/echo`, { signal: early.signal }), { name: 'AbortError' });

    const late = new AbortController();
    const response = await httpFetch(`${base}/hang`, { signal: late.signal });
    const reader = (response.body ?? assert.fail('no body')).getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), 'data: first\n\n');
    late.abort();
    await assert.rejects(reader.read(), { name: 'AbortError' });
  });

  test('a refused connection rejects; a URL it cannot fetch is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(httpFetch(`http://127.0.0.1:${port}/`), { code: 'ECONNREFUSED' });
    await assert.rejects(httpFetch('ftp://127.0.0.1/'), /cannot fetch ftp: URLs/);
  });
});
