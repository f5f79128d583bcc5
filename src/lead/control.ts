import { createConnection, createServer, type Server } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import * as z from 'zod';
import { writeFileAtomic, isMissing, describeIssues, errorMessage } from '../lib/index.js';
import { parseLeadOp, type LeadOp } from './ops.js';

const Token = z.string().regex(/^[0-9a-f]{64}$/, 'not a control token');
/** The capability beside the op, checked before the op is (an op's words never reach a client without it). */
const ControlRequest = z.looseObject({ token: z.string() });

/**
 * The running lead's control socket: how `teams approve`, `teams spawn`, `teams send` and
 * `teams requests` in another terminal reach the process that holds the lead's key and
 * supervises the team. One JSON line in (a LeadOp and the token), one JSON line out.
 *
 * Who may command it is decided by a capability, never by who the client says it is: a
 * random token in a file of the state root (mode 0600), which no agent's sandbox can see.
 */
export const ControlReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), message: z.string() }),
  /** `refused`: the command was understood and refused (a usage error); otherwise it failed. */
  z.object({ ok: z.literal(false), error: z.string(), refused: z.boolean() }),
]);
export type ControlReply = z.infer<typeof ControlReply>;

const MAX_LINE = 1024 * 1024;

/** A fresh capability for this lead, written where only the human's own processes look. */
export function issueControlToken(tokenPath: string): string {
  const token = randomBytes(32).toString('hex');
  writeFileAtomic(tokenPath, `${token}\n`, { mode: 0o600 });
  return token;
}

/** The running lead's capability, or undefined when there is none to read. */
export function readControlToken(tokenPath: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(tokenPath, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw new Error(`cannot read the control token ${tokenPath}: ${errorMessage(error)}`);
  }
  const parsed = Token.safeParse(text.trim());
  if (!parsed.success) throw new Error(`${tokenPath} does not hold a control token; restart the lead to write a new one`);
  return parsed.data;
}

function sameToken(given: string, expected: Buffer): boolean {
  const buffer = Buffer.from(given, 'utf8');
  return buffer.length === expected.length && timingSafeEqual(buffer, expected);
}

export async function startControlServer(
  path: string,
  token: string,
  handle: (op: LeadOp) => Promise<ControlReply>,
  refused: (why: string) => void,
): Promise<{ close(): Promise<void> }> {
  const expected = Buffer.from(token, 'utf8');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // A socket file left by a lead that was killed is stale: nobody can be listening on it.
  rmSync(path, { force: true });
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE) return void socket.end(`${JSON.stringify({ ok: false, error: 'command too large', refused: true })}\n`);
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      const line = buffer.slice(0, newline);
      buffer = '';
      const reply = (body: ControlReply) => socket.end(`${JSON.stringify(body)}\n`);
      answer(line).then(reply, (error: unknown) => reply({ ok: false, error: errorMessage(error), refused: false }));
    });
  });
  const answer = async (line: string): Promise<ControlReply> => {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return { ok: false, error: 'control command is not JSON', refused: true };
    }
    const request = ControlRequest.safeParse(raw);
    if (!request.success) return { ok: false, error: `bad control command: ${describeIssues(request.error, 'command')}`, refused: true };
    const { token: given, ...rest } = request.data;
    const op = parseLeadOp(rest);
    if (!op.ok) return { ok: false, error: `bad control command: ${op.error}`, refused: true };
    if (!sameToken(given, expected)) {
      const error = `refused: ${op.op.op} without this lead's control token; only the human's own terminal holds it`;
      refused(error);
      return { ok: false, error, refused: true };
    }
    try {
      return await handle(op.op);
    } catch (error) {
      return { ok: false, error: errorMessage(error), refused: false };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

/** Send one op to the running lead; undefined when no lead is listening. */
export async function sendControl(path: string, token: string, command: LeadOp, timeoutMs = 30_000): Promise<ControlReply | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the lead did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ ...command, token })}\n`));
    socket.on('data', (chunk: string) => (buffer += chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      // The answer is whole: nothing more is sent either, and the server's close need not wait for us.
      socket.destroy();
      // Closed without a word: the lead was stopping as it was asked. It no longer runs, so the
      // caller goes on as with no lead (what it asked is judged again against the stored state).
      if (buffer.trim() === '') return resolve(undefined);
      const parsed = ControlReply.safeParse(safeJson(buffer.trim()));
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`the lead sent an unreadable reply: ${buffer.slice(0, 200)}`));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // No socket, nobody behind it, or the lead gone mid-request: there is no running lead.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve(undefined);
      else reject(error);
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
