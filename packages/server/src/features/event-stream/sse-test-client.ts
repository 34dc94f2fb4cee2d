import http from 'node:http';

export type SseMessage = { id: string | undefined; event: string; data: string };

// A server-sent events client for tests, reading as the answer arrives (as a browser's
// EventSource does, without its reconnection: the test reconnects itself with Last-Event-ID).
export type SseClient = {
  status: number;
  messages(): SseMessage[];
  // Resolves when the server ends the stream.
  ended: Promise<void>;
  close(): void;
};

const parseBlock = (block: string): SseMessage | undefined => {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { id, event, data: data.join('\n') };
};

export const openSse = (url: string, headers: Record<string, string>): Promise<SseClient> =>
  new Promise((resolve, reject) => {
    let text = '';
    const request = http.get(url, { headers }, (response) => {
      let markEnded: () => void = () => undefined;
      const ended = new Promise<void>((done) => (markEnded = done));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => markEnded());
      response.on('close', () => markEnded());
      response.on('error', () => undefined);
      resolve({
        status: response.statusCode ?? 0,
        messages: () =>
          text
            .split('\n\n')
            .slice(0, -1)
            .map(parseBlock)
            .filter((message) => message !== undefined),
        ended,
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
