import { z } from 'zod';

// What a container engine answers a build or a push: NDJSON messages, each a piece of output,
// a progress status or an error.

// One message of the engine's progress stream (build and push answer NDJSON).
export const progressMessage = z.looseObject({
  stream: z.string().optional(),
  status: z.string().optional(),
  id: z.string().optional(),
  error: z.string().optional(),
  errorDetail: z.looseObject({ message: z.string().optional() }).optional(),
  aux: z.looseObject({ ID: z.string().optional(), Digest: z.string().optional() }).optional(),
});

export type ProgressMessage = z.infer<typeof progressMessage>;

const maxMessageChars = 4 * 1024 * 1024;

// The engine's messages of the form `schema` reads; others are passed over.
export async function* messagesOf<T>(
  stream: NodeJS.ReadableStream,
  schema: z.ZodType<T>,
): AsyncGenerator<T> {
  let pending = '';
  const parse = (line: string): T | undefined => {
    if (line.trim() === '') return undefined;
    const parsed = schema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  };
  for await (const chunk of stream) {
    pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    // The engine writes a message a line, each a piece of output: one without end is no message.
    if (pending.length > maxMessageChars) throw new Error('The engine sent a message without end');
    for (const line of lines) {
      const message = parse(line);
      if (message) yield message;
    }
  }
  const last = parse(pending);
  if (last) yield last;
}

// Longest output the engine may write without a line break before it is handed on as a line.
const maxPendingChars = 64 * 1024;

// The engine's build output arrives in pieces that need not end at a line: lines are handed on
// whole, without the engine's blank lines.
export const lineSplitter = (onLog: (line: string) => void) => {
  let pending = '';
  return {
    write(text: string): void {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      if (pending.length > maxPendingChars) {
        lines.push(pending);
        pending = '';
      }
      for (const line of lines) if (line.trim() !== '') onLog(line.trimEnd());
    },
    flush(): void {
      if (pending.trim() !== '') onLog(pending.trimEnd());
      pending = '';
    },
  };
};

export const errorOf = (message: {
  error?: string | undefined;
  errorDetail?: { message?: string | undefined } | undefined;
}): string | undefined => message.error ?? message.errorDetail?.message;
