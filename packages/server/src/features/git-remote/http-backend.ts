import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { type CgiResponse, readCgiResponse } from './cgi-response.js';

export type HttpBackendRequest = {
  binary: string;
  env: NodeJS.ProcessEnv;
  // The request body (a POST's), streamed to git; refused past maxBodyBytes.
  body: Readable | undefined;
  maxBodyBytes: number;
  timeoutMs: number;
  onStderr(text: string): void;
};

export type HttpBackendRun = {
  response: Promise<CgiResponse>;
  // Settles when git (and everything it started) is done; true when it ended as it should.
  finished: Promise<boolean>;
  // Ends git and what it started (the client went away).
  stop(): void;
};

// `git http-backend` as a CGI child: the request body in, the answer out as it is written. It runs
// in its own process group, so stopping it (time limit, oversized body, client gone) also stops
// the receive-pack and hook it started.
export const runHttpBackend = (request: HttpBackendRequest): HttpBackendRun => {
  const child = spawn(request.binary, ['http-backend'], {
    env: request.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  let stopped = false;
  const stop = (): void => {
    if (stopped || child.pid === undefined || child.exitCode !== null) return;
    stopped = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const timer = setTimeout(stop, request.timeoutMs);
  const finished = new Promise<boolean>((resolve) => {
    child.on('error', () => resolve(false));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(!stopped && code === 0);
    });
  });
  child.stderr.on('data', (chunk: Buffer) => request.onStderr(chunk.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const body = request.body;
  if (body) {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > request.maxBodyBytes) {
        body.destroy();
        stop();
        return;
      }
      if (!child.stdin.write(chunk)) {
        body.pause();
        child.stdin.once('drain', () => body.resume());
      }
    });
    body.on('end', () => child.stdin.end());
    body.on('error', stop);
  } else {
    child.stdin.end();
  }
  const response = new Promise<CgiResponse>((resolve, reject) => {
    child.on('error', reject);
    readCgiResponse(child.stdout).then(resolve, reject);
  });
  return { response, finished, stop };
};
