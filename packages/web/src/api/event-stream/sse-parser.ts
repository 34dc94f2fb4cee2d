// One server-sent event as the stream delivers it: `event` is "message" unless named.
export type SseEvent = { id: string | undefined; event: string; data: string };

export type SseParser = {
  // Feeds decoded text as it arrives; a chunk may end anywhere, even inside a line.
  push(text: string): void;
  // The id of the last event (what a reconnection sends as Last-Event-ID).
  lastEventId(): string | undefined;
  // The reconnection delay the server asked for with `retry:`, if any.
  retryMs(): number | undefined;
};

// The text/event-stream format read incrementally (the browser's EventSource cannot send our
// Bearer header, so the console reads the stream with fetch): lines end in LF, CR or CRLF;
// a blank line dispatches; comment lines (": heartbeat") only prove the stream is alive.
export const createSseParser = (onEvent: (event: SseEvent) => void): SseParser => {
  let buffer = '';
  let skipLf = false;
  let lastId: string | undefined;
  let retry: number | undefined;
  let eventName = '';
  let data: string[] = [];
  let hasData = false;

  const dispatch = (): void => {
    if (hasData) onEvent({ id: lastId, event: eventName || 'message', data: data.join('\n') });
    eventName = '';
    data = [];
    hasData = false;
  };
  const line = (text: string): void => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') eventName = value;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) retry = Number(value);
  };

  return {
    push: (text) => {
      let chunk = text;
      if (skipLf && chunk.startsWith('\n')) chunk = chunk.slice(1);
      skipLf = false;
      buffer += chunk;
      let start = 0;
      for (let index = 0; index < buffer.length; index += 1) {
        const char = buffer[index];
        if (char !== '\n' && char !== '\r') continue;
        line(buffer.slice(start, index));
        if (char === '\r') {
          if (index + 1 === buffer.length) skipLf = true;
          else if (buffer[index + 1] === '\n') index += 1;
        }
        start = index + 1;
      }
      buffer = buffer.slice(start);
    },
    lastEventId: () => lastId,
    retryMs: () => retry,
  };
};
