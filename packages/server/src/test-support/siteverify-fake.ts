import { createServer, type Server } from 'node:http';

// A strict stand-in for reCAPTCHA's siteverify (Google's service cannot run here): it answers
// only the documented request (POST, form-encoded secret, response and remoteip) with the
// configured secret; `human` is a good answer, any other answer a wrong one. Anything else is
// recorded in `unexpected`, which a test asserts empty.
export type SiteverifyFake = {
  url: string;
  secret: string;
  answers: string[];
  unexpected: string[];
  close: () => Promise<void>;
};

export const startSiteverifyFake = async (): Promise<SiteverifyFake> => {
  const secret = 'siteverify-fake-secret';
  const answers: string[] = [];
  const unexpected: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      const fields = [...form.keys()].sort().join(',');
      if (
        request.method !== 'POST' ||
        request.url !== '/recaptcha/api/siteverify' ||
        request.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
        fields !== 'remoteip,response,secret' ||
        form.get('secret') !== secret
      ) {
        unexpected.push(`${request.method ?? '?'} ${request.url ?? '?'} ${fields}`);
        response.writeHead(400).end();
        return;
      }
      const answer = form.get('response') ?? '';
      answers.push(answer);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify(
            answer === 'human'
              ? { success: true, hostname: 'localhost' }
              : { success: false, 'error-codes': ['invalid-input-response'] },
          ),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/recaptcha/api/siteverify`,
    secret,
    answers,
    unexpected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
