import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('FLOTILLA_NATS_URL', () => {
  it('is unset by default: PostgreSQL carries the bus', () => {
    expect(loadConfig({}).messageBus).toEqual({ natsUrl: undefined });
    expect(loadConfig({ FLOTILLA_NATS_URL: '' }).messageBus.natsUrl).toBeUndefined();
  });

  it('takes one NATS server or a comma-separated cluster', () => {
    expect(loadConfig({ FLOTILLA_NATS_URL: 'nats://127.0.0.1:4222' }).messageBus.natsUrl).toBe(
      'nats://127.0.0.1:4222',
    );
    const cluster = 'nats://a:4222, nats://b:4222,tls://c';
    expect(loadConfig({ FLOTILLA_NATS_URL: cluster }).messageBus.natsUrl).toBe(cluster);
  });

  it('refuses anything else with a clear message', () => {
    for (const wrong of ['http://nats:4222', 'nats://', 'localhost:4222']) {
      expect(() => loadConfig({ FLOTILLA_NATS_URL: wrong }), wrong).toThrow(
        'Expected nats://host:port, comma-separated for several servers',
      );
    }
  });
});
