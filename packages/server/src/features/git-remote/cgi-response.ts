import { PassThrough, type Readable } from 'node:stream';

// The answer of a CGI program (git http-backend): its header block, then the body as it comes.
export type CgiResponse = {
  status: number;
  headers: Record<string, string>;
  body: Readable;
};

// Headers a CGI program may set that we pass on; Status becomes the HTTP status.
const passedHeaders = new Set(['content-type', 'cache-control', 'expires', 'pragma']);

const maxHeaderBytes = 16 * 1024;

const parseHeaders = (text: string): Omit<CgiResponse, 'body'> => {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') {
      const code = Number.parseInt(value, 10);
      if (code >= 200 && code < 600) status = code;
    } else if (passedHeaders.has(name)) headers[name] = value;
  }
  return { status, headers };
};

// Reads the header block from a CGI program's output and answers it with the rest of the output
// as the body (streamed, not buffered: a push's build log reaches the client as it is written).
// Rejects when the output ends, or grows past 16 KiB, before the header block does.
export const readCgiResponse = (output: Readable): Promise<CgiResponse> =>
  new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const text = head.toString('latin1');
      const match = /\r?\n\r?\n/.exec(text);
      if (!match) {
        if (head.length > maxHeaderBytes) finish(new Error('The CGI header block is too large'));
        return;
      }
      output.removeListener('data', onData);
      output.removeListener('end', onEnd);
      output.removeListener('error', finish);
      output.pause();
      const body = new PassThrough();
      const rest = head.subarray(match.index + match[0].length);
      if (rest.length > 0) body.write(rest);
      output.pipe(body);
      output.on('error', (error: Error) => body.destroy(error));
      resolve({ ...parseHeaders(text.slice(0, match.index)), body });
    };
    const onEnd = (): void => finish(new Error('The CGI program ended before its headers'));
    const finish = (error: Error): void => {
      output.removeListener('data', onData);
      output.removeListener('end', onEnd);
      output.removeListener('error', finish);
      reject(error);
    };
    output.on('data', onData);
    output.on('end', onEnd);
    output.on('error', finish);
  });
