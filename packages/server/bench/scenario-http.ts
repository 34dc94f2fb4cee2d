import type { BenchEnv } from './scenario-env.js';

// The HTTP side of the scenarios: calls to the real server and OData engine.

// OData literals as the SDK sends them: spaces percent-encoded, the rest left readable.
export const odata = (text: string): string => text.replace(/ /g, '%20');

export const call = async (
  env: BenchEnv,
  method: 'GET' | 'PATCH',
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<string> => {
  // Uncompressed answers: this table compares the engine with hand-written SQL, and compressing
  // (server) and decompressing (here) on the same cores would measure zlib instead.
  const headers: Record<string, string> = {
    'accept-encoding': 'identity',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${env.baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `${method} ${path.slice(0, 160)} answered ${response.status}: ${text.slice(0, 300)}`,
    );
  }
  return text;
};

export const getRows = async <Row>(env: BenchEnv, path: string, token: string): Promise<Row[]> =>
  (JSON.parse(await call(env, 'GET', `/v7${path}`, token)) as { d: Row[] }).d;

export const getCount = async (env: BenchEnv, path: string, token: string): Promise<number> =>
  (JSON.parse(await call(env, 'GET', `/v7${path}`, token)) as { d: number }).d;
