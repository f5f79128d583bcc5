import { createConnection, createServer, type Server } from 'node:net';
import { rmSync } from 'node:fs';
import { z } from 'zod';
import { AgentName } from '../protocol/names.js';
import { RequestId } from '../protocol/messages.js';

/**
 * The running lead's control socket: how `teams approve`, `teams spawn` and `teams shutdown`
 * in another terminal reach the process that holds the lead's key and supervises the team.
 * One JSON line in, one JSON line out.
 */
export const ControlCommand = z.discriminatedUnion('op', [
  z.object({ op: z.literal('decide'), request_id: RequestId, approve: z.boolean(), note: z.string().optional(), always: z.boolean().optional() }),
  z.object({ op: z.literal('spawn'), name: AgentName, role: z.string().min(1), prompt: z.string().optional(), plan_mode: z.boolean().optional() }),
  z.object({ op: z.literal('shutdown'), name: AgentName, reason: z.string().optional() }),
]);
export type ControlCommand = z.infer<typeof ControlCommand>;

/** On the wire every command names the process that sends it, so the lead can tell who asks. */
const ControlRequest = z.object({ client_pid: z.number().int().positive() }).and(ControlCommand);

export const ControlReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), message: z.string() }),
  /** `refused`: the command was understood and refused (a usage error); otherwise it failed. */
  z.object({ ok: z.literal(false), error: z.string(), refused: z.boolean() }),
]);
export type ControlReply = z.infer<typeof ControlReply>;

const MAX_LINE = 1024 * 1024;

export async function startControlServer(
  path: string,
  handle: (command: ControlCommand, clientPid: number) => Promise<ControlReply>,
): Promise<{ close(): Promise<void> }> {
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
      void answer(line).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
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
    if (!request.success) return { ok: false, error: `bad control command: ${request.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, refused: true };
    const { client_pid: clientPid, ...command } = request.data;
    try {
      return await handle(command, clientPid);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error), refused: false };
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

/** Send one command to the running lead; undefined when no lead is listening. */
export async function sendControl(path: string, command: ControlCommand, timeoutMs = 30_000): Promise<ControlReply | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the lead did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ ...command, client_pid: process.pid })}\n`));
    socket.on('data', (chunk: string) => (buffer += chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      const parsed = ControlReply.safeParse(safeJson(buffer.trim()));
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`the lead sent an unreadable reply: ${buffer.slice(0, 200)}`));
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // No socket, or nobody behind it: there is no running lead.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(undefined);
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
