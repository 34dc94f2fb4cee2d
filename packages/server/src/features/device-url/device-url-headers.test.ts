import { describe, expect, it } from 'vitest';
import { deviceUrlHostMatcher, deviceUrlsBaseOf } from './device-url-host.js';
import { forwardedRequestHeaders, hostOnlyCookie } from './device-url-headers.js';

const uuid = 'a'.repeat(32);

describe('deviceUrlHostMatcher', () => {
  const match = deviceUrlHostMatcher('localhost:8080');
  it('claims <uuid>.<base> whatever the port, and nothing else', () => {
    expect(match(`${uuid}.localhost:8080`)).toEqual({ kind: 'device', uuid });
    expect(match(`${uuid.toUpperCase()}.LOCALHOST`)).toEqual({ kind: 'device', uuid });
    expect(match('nope.localhost:8080')).toEqual({ kind: 'unknown' });
    expect(match(`x.${uuid}.localhost`)).toEqual({ kind: 'unknown' });
    // balena's actions service, which the app answers itself.
    expect(match('actions.localhost:8080')).toEqual({ kind: 'app' });
    for (const host of ['localhost:8080', 'localhost', '127.0.0.1:8080', `${uuid}.example.com`]) {
      expect(match(host), host).toEqual({ kind: 'app' });
    }
    expect(match(undefined)).toEqual({ kind: 'app' });
  });

  it('still claims device hosts between repeated requests for the app host', () => {
    const fresh = deviceUrlHostMatcher('localhost:8080');
    for (const host of ['api.example.com:443', 'api.example.com:443', 'API.EXAMPLE.COM']) {
      expect(fresh(host)).toEqual({ kind: 'app' });
      expect(fresh(`${uuid}.localhost:8080`)).toEqual({ kind: 'device', uuid });
      expect(fresh('nope.localhost')).toEqual({ kind: 'unknown' });
      expect(fresh(host)).toEqual({ kind: 'app' });
    }
  });
});

describe('deviceUrlsBaseOf', () => {
  it('is the configured base, or localhost on the port listened on', () => {
    expect(deviceUrlsBaseOf('devices.example.com', [{ port: 80 }])).toBe('devices.example.com');
    expect(deviceUrlsBaseOf(undefined, [{ port: 41234 }, { port: 41234 }])).toBe('localhost:41234');
    expect(deviceUrlsBaseOf(undefined, [])).toBe('localhost');
  });
});

describe('device URL headers', () => {
  it('drops a cookie’s Domain so it stays on the device’s host', () => {
    expect(hostOnlyCookie('a=1; Domain=.example.com; Path=/; Secure')).toBe('a=1; Path=/; Secure');
    expect(hostOnlyCookie('a=1;domain=example.com')).toBe('a=1');
  });

  it('keeps hop-by-hop headers on their hop and says where the request came from', () => {
    const headers = forwardedRequestHeaders(
      {
        host: 'h',
        connection: 'keep-alive, x-private',
        'x-private': 'secret',
        'transfer-encoding': 'chunked',
        accept: 'text/html',
      },
      { address: '10.0.0.1', encrypted: true },
      undefined,
    );
    expect(headers).toEqual({
      host: 'h',
      accept: 'text/html',
      connection: 'close',
      'x-forwarded-for': '10.0.0.1',
      'x-forwarded-host': 'h',
      'x-forwarded-proto': 'https',
    });
  });
});
