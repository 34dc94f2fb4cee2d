import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type PlausibleFake, startPlausibleFake } from '../../test-support/plausible-fake.js';
import { createPlausibleForwarder, plausibleQueueLimit } from './plausible-forwarder.js';

const browser = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0';

let plausible: PlausibleFake;
let warnings: string[];
let notes: string[];
const log = {
  warn: (message: string) => warnings.push(message),
  info: (message: string) => notes.push(message),
};

beforeEach(async () => {
  plausible = await startPlausibleFake();
  warnings = [];
  notes = [];
});
afterEach(() => plausible.close());

const forwarder = () =>
  createPlausibleForwarder({ url: plausible.url, domain: 'console.example.com' }, log);

describe('the Plausible forwarder', () => {
  it('sends a page view as a pageview of its route pattern and a feature use as a custom event', async () => {
    const sender = forwarder();
    sender.send(
      [
        { kind: 'page', name: '/fleets/:fleetId/devices' },
        { kind: 'feature', name: 'create-fleet' },
      ],
      browser,
    );
    await plausible.waitFor(2);
    await sender.close();
    expect(plausible.received.map((event) => event.body)).toEqual(
      expect.arrayContaining([
        {
          name: 'pageview',
          url: 'https://console.example.com/fleets/:fleetId/devices',
          domain: 'console.example.com',
        },
        {
          name: 'create-fleet',
          url: 'https://console.example.com/',
          domain: 'console.example.com',
        },
      ]),
    );
    for (const { headers } of plausible.received) {
      expect(headers['user-agent']).toBe(browser);
      // Nothing that says who: the browser's address is not passed on.
      expect(headers['x-forwarded-for']).toBeUndefined();
    }
    expect(warnings).toEqual([]);
  });

  it('says once that Plausible refuses events, not once per event', async () => {
    plausible.answer(500);
    const sender = forwarder();
    sender.send([{ kind: 'page', name: '/fleets' }], browser);
    sender.send([{ kind: 'page', name: '/fleets' }], browser);
    sender.send([{ kind: 'page', name: '/fleets' }], browser);
    await plausible.waitFor(3);
    await sender.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('answered 500');
    expect(notes).toEqual([]);
  });

  it('keeps at most a bounded queue while Plausible is behind, and drops the rest', async () => {
    const sender = forwarder();
    const many = Array.from({ length: plausibleQueueLimit + 50 }, () => ({
      kind: 'page' as const,
      name: '/fleets',
    }));
    sender.send(many, browser);
    expect(warnings).toEqual(['analytics: Plausible is behind; events dropped']);
    await sender.close();
    // Closing empties the queue: only the requests already under way went out.
    expect(plausible.received.length).toBeLessThan(plausibleQueueLimit);
  });

  it('sends nothing after close', async () => {
    const sender = forwarder();
    await sender.close();
    sender.send([{ kind: 'page', name: '/fleets' }], browser);
    await sender.close();
    expect(plausible.received).toEqual([]);
  });
});
