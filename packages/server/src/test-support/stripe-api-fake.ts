import { createServer, type IncomingMessage, type Server } from 'node:http';

// A strict fake of Stripe's API: only the endpoints the Stripe payment provider calls
// (customers, setup intents, payment methods, payment intents). Stripe cannot run here; the
// official client is pointed at this fake by its host/port/protocol options. Anything else (an
// unknown path or method, a wrong secret key, a body that is not form-encoded, a missing API
// version, a reused idempotency key with other parameters) is recorded in `unexpected` and
// answered with Stripe's error shape, so a test can assert nothing strayed. The browser's part
// (Stripe.js confirming a card or a bank account for a setup intent) is `confirmSetupIntent`.
// Bank debits (us_bank_account, sepa_debit) behave as Stripe's: a debit is `processing` until
// the bank settles it (a webhook), SEPA is charged in euros only, and Stripe.js confirms only a
// payment method type the setup intent offers.
export type FakeCard = {
  brand: string;
  last4: string;
  behaviour?: 'declines' | 'processing';
  type?: FakeMethodType;
};
type FakeMethodType = 'card' | 'us_bank_account' | 'sepa_debit';
const fakeMethodTypes: readonly string[] = ['card', 'us_bank_account', 'sepa_debit'];

type Stored = Record<string, unknown> & { id: string };

export type StripeApiFake = {
  url: string;
  secretKey: string;
  // What Stripe.js does in the browser once the cardholder enters a card.
  confirmSetupIntent(id: string, card: FakeCard): string;
  // A card saved outside the setup-intent flow (a pm_ token), not yet attached.
  createPaymentMethod(card: FakeCard): string;
  paymentIntents(): Stored[];
  customers(): Stored[];
  unexpected: string[];
  close(): Promise<void>;
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
};

export const startStripeApiFake = async (): Promise<StripeApiFake> => {
  const secretKey = 'sk_test_flotillafake0001';
  const unexpected: string[] = [];
  const objects = new Map<string, Stored>();
  const cards = new Map<string, FakeCard>();
  const idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  let counter = 0;
  const newId = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;
  const store = (object: Stored) => (objects.set(object.id, object), object);
  const ofType = (prefix: string) => [...objects.values()].filter((o) => o.id.startsWith(prefix));
  const methodObject = (id: string, customer: string | null): Stored => {
    const card = cards.get(id);
    const type = card?.type ?? 'card';
    const details =
      type === 'card'
        ? { card: { brand: card?.brand, last4: card?.last4, exp_month: 12, exp_year: 2034 } }
        : type === 'us_bank_account'
          ? { us_bank_account: { last4: card?.last4, bank_name: 'STRIPE TEST BANK' } }
          : { sepa_debit: { last4: card?.last4, country: 'DE' } };
    return { id, object: 'payment_method', type, customer, ...details };
  };

  const route = (method: string, path: string, params: URLSearchParams): [number, unknown] => {
    const metadata = Object.fromEntries(
      [...params].flatMap(([key, value]) => {
        const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
        return name ? [[name, value]] : [];
      }),
    );
    const missing = (id: string) =>
      [404, { error: { type: 'invalid_request_error', message: `No such object: '${id}'` } }] as [
        number,
        unknown,
      ];
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      return [
        200,
        store({ id: newId('cus'), object: 'customer', email: params.get('email'), metadata }),
      ];
    }
    if (method === 'POST' && (match = /^\/v1\/customers\/(cus_\w+)$/.exec(path))) {
      const customer = objects.get(match[1] ?? '');
      if (!customer) return missing(match[1] ?? '');
      customer.default_payment_method = params.get('invoice_settings[default_payment_method]');
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const customer = params.get('customer') ?? '';
      const types = [...params]
        .filter(([key]) => /^payment_method_types\[\d+\]$/.test(key))
        .map(([, value]) => value);
      if (
        !objects.has(customer) ||
        types.length === 0 ||
        !types.every((type) => fakeMethodTypes.includes(type))
      ) {
        return [
          400,
          {
            error: {
              type: 'invalid_request_error',
              message: 'a customer and known payment method types are required',
            },
          },
        ];
      }
      const id = newId('seti');
      return [
        200,
        store({
          id,
          object: 'setup_intent',
          customer,
          status: 'requires_payment_method',
          payment_method: null,
          client_secret: `${id}_secret_x`,
          usage: params.get('usage'),
          payment_method_types: types,
          metadata,
        }),
      ];
    }
    if (method === 'GET' && (match = /^\/v1\/setup_intents\/(seti_\w+)$/.exec(path))) {
      return objects.get(match[1] ?? '')
        ? [200, objects.get(match[1] ?? '')]
        : missing(match[1] ?? '');
    }
    if ((match = /^\/v1\/payment_methods\/(pm_\w+)(\/attach|\/detach)?$/.exec(path))) {
      const id = match[1] ?? '';
      const stored = objects.get(id);
      if (!stored) return missing(id);
      if (method === 'GET' && !match[2]) return [200, stored];
      if (method === 'POST' && match[2] === '/attach') {
        stored.customer = params.get('customer');
        return [200, stored];
      }
      if (method === 'POST' && match[2] === '/detach') {
        stored.customer = null;
        return [200, stored];
      }
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const methodId = params.get('payment_method') ?? '';
      const stored = objects.get(methodId);
      if (
        !stored ||
        stored.customer !== params.get('customer') ||
        params.get('confirm') !== 'true' ||
        params.get('off_session') !== 'true'
      ) {
        return [
          400,
          {
            error: {
              type: 'invalid_request_error',
              message: 'an attached payment method, confirmed off-session, is required',
            },
          },
        ];
      }
      const methodType = cards.get(methodId)?.type ?? 'card';
      if (methodType === 'sepa_debit' && params.get('currency') !== 'eur') {
        unexpected.push(`a SEPA debit in ${params.get('currency') ?? 'no currency'}`);
        return [
          400,
          { error: { type: 'invalid_request_error', message: 'SEPA debits support eur only' } },
        ];
      }
      // A bank debit is not instant: it settles days later (payment_intent.succeeded).
      const behaviour =
        cards.get(methodId)?.behaviour ?? (methodType === 'card' ? undefined : 'processing');
      const intent = store({
        id: newId('pi'),
        object: 'payment_intent',
        amount: Number(params.get('amount')),
        currency: params.get('currency'),
        customer: params.get('customer'),
        payment_method: methodId,
        status:
          behaviour === 'declines'
            ? 'requires_payment_method'
            : behaviour === 'processing'
              ? 'processing'
              : 'succeeded',
        last_payment_error:
          behaviour === 'declines' ? { message: 'Your card was declined.' } : null,
        metadata,
      });
      if (behaviour === 'declines') {
        return [
          402,
          {
            error: {
              type: 'card_error',
              code: 'card_declined',
              message: 'Your card was declined.',
              payment_intent: intent,
            },
          },
        ];
      }
      return [200, intent];
    }
    return [
      404,
      { error: { type: 'invalid_request_error', message: 'not an endpoint of this fake' } },
    ];
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method ?? '?';
      const url = new URL(request.url ?? '/', 'http://fake');
      const answer = (status: number, payload: unknown) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': newId('req'),
        });
        response.end(JSON.stringify(payload));
      };
      const refuse = (status: number, why: string) => {
        unexpected.push(`${method} ${url.pathname}: ${why}`);
        answer(status, { error: { type: 'invalid_request_error', message: why } });
      };
      if (request.headers.authorization !== `Bearer ${secretKey}`)
        return refuse(401, 'Invalid API Key provided');
      if (typeof request.headers['stripe-version'] !== 'string')
        return refuse(400, 'no API version');
      if (
        method === 'POST' &&
        body !== '' &&
        request.headers['content-type'] !== 'application/x-www-form-urlencoded'
      ) {
        return refuse(400, 'not form-encoded');
      }
      const params = new URLSearchParams(method === 'GET' ? url.search : body);
      const key = request.headers['idempotency-key'];
      const remembered = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (remembered) {
        if (remembered.params !== body)
          return refuse(400, 'idempotency key reused with other parameters');
        return answer(remembered.status, remembered.body);
      }
      const [status, payload] = route(method, url.pathname, params);
      if (status === 404 && JSON.stringify(payload).includes('not an endpoint'))
        return refuse(404, 'not an endpoint of this fake');
      if (typeof key === 'string') idempotent.set(key, { params: body, status, body: payload });
      return answer(status, payload);
    })().catch((error: unknown) => {
      unexpected.push(String(error));
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const createPaymentMethod = (card: FakeCard) => {
    const id = newId('pm');
    cards.set(id, card);
    store(methodObject(id, null));
    return id;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    confirmSetupIntent: (id, card) => {
      const intent = objects.get(id);
      if (!intent) throw new Error(`no setup intent ${id}`);
      const offered = intent.payment_method_types;
      if (!Array.isArray(offered) || !offered.includes(card.type ?? 'card')) {
        throw new Error(`setup intent ${id} does not offer ${card.type ?? 'card'}`);
      }
      const methodId = createPaymentMethod(card);
      const method = objects.get(methodId);
      if (method) method.customer = intent.customer;
      intent.status = 'succeeded';
      intent.payment_method = methodId;
      return methodId;
    },
    createPaymentMethod,
    paymentIntents: () => ofType('pi_'),
    customers: () => ofType('cus_'),
    unexpected,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
