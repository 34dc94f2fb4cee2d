import { createHmac, randomBytes } from 'node:crypto';

// Deliveries are signed like this (docs/EVENTS.md): HMAC-SHA256, keyed by the endpoint's secret,
// over "<timestamp>.<body>", sent as `Flotilla-Signature: t=<timestamp>,v1=<hex>`. The timestamp
// (seconds) is inside the signature, so a receiver that refuses old timestamps refuses replays.
export const signatureHeader = 'flotilla-signature';
export const deliveryIdHeader = 'flotilla-delivery';
export const eventTypeHeader = 'flotilla-event';

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const signatureHeaderValue = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
