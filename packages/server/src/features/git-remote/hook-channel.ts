import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// What the pre-receive hook (packages/server/git-hooks/pre-receive-relay.mjs) sends: its token,
// the quarantine directory holding the pushed objects, and git's ref lines.
export type HookRequest = { quarantine: string | null; refLines: string[] };

// What the push's handler does with it: writes log lines, answers the hook's exit code (non-zero
// refuses the push).
export type HookHandler = (request: HookRequest, say: (line: string) => void) => Promise<number>;

export type HookChannel = {
  // For the git processes of this push (the hook finds the channel through them).
  env: Record<string, string>;
  close(): Promise<void>;
};

// A push's ref lines are a few hundred bytes; anything past this is not our hook.
const maxRequestBytes = 64 * 1024;

const sameToken = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const parseRequest = (text: string, token: string): HookRequest | undefined => {
  const [first = '', ...rest] = text.split('\n');
  let header: unknown;
  try {
    header = JSON.parse(first);
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null) return undefined;
  const given = 'token' in header && typeof header.token === 'string' ? header.token : '';
  if (!sameToken(given, token)) return undefined;
  const quarantine =
    'quarantine' in header && typeof header.quarantine === 'string' ? header.quarantine : null;
  return { quarantine, refLines: rest.filter((line) => line.trim() !== '') };
};

const serve = (socket: Socket, token: string, handle: HookHandler): void => {
  const chunks: Buffer[] = [];
  let size = 0;
  const send = (message: { line: string } | { exit: number }): void => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxRequestBytes) socket.destroy();
    else chunks.push(chunk);
  });
  socket.on('end', () => {
    const request = parseRequest(Buffer.concat(chunks).toString('utf8'), token);
    if (!request) {
      socket.destroy();
      return;
    }
    void handle(request, (line) => send({ line })).then(
      (exit) => {
        send({ exit });
        socket.end();
      },
      () => {
        send({ line: 'The build failed on the server' });
        send({ exit: 1 });
        socket.end();
      },
    );
  });
};

// The channel between one push's pre-receive hook and this server: a Unix socket in a fresh
// private directory (only this server's user can reach it), answering the one hook that knows the
// push's random token.
export const openHookChannel = async (handle: HookHandler): Promise<HookChannel> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-git-'));
  const socketPath = path.join(dir, 'hook.sock');
  const token = randomBytes(24).toString('hex');
  // Half-open: the hook ends its side once it has sent the refs, and still reads the log.
  const server: Server = createServer({ allowHalfOpen: true }, (socket) =>
    serve(socket, token, handle),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    env: {
      FLOTILLA_NODE: process.execPath,
      FLOTILLA_GIT_HOOK_SOCKET: socketPath,
      FLOTILLA_GIT_HOOK_TOKEN: token,
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
};
