import { describe, expect, it } from 'vitest';
import { cliLoginPath, cliLoginTarget } from './cli-login-target.js';

const segmentOf = (path: string): string => path.slice('/login/cli/'.length);

describe('cliLoginTarget', () => {
  it("reads balena-cli's doubly encoded callback, raw or decoded once by the router", () => {
    const path = cliLoginPath('http://127.0.0.1:51234/auth');
    expect(path).toBe('/login/cli/http%253A%252F%252F127.0.0.1%253A51234%252Fauth');
    const expected = {
      ok: true,
      url: 'http://127.0.0.1:51234/auth',
      origin: 'http://127.0.0.1:51234',
    };
    expect(cliLoginTarget(segmentOf(path))).toEqual(expected);
    expect(cliLoginTarget(decodeURIComponent(segmentOf(path)))).toEqual(expected);
    expect(cliLoginTarget('http://127.0.0.1:51234/auth')).toEqual(expected);
  });

  it('accepts localhost and IP literals', () => {
    expect(cliLoginTarget('http%3A%2F%2Flocalhost%3A8000%2Fauth')).toMatchObject({
      ok: true,
      origin: 'http://localhost:8000',
    });
    expect(cliLoginTarget('http://192.168.1.20:9000/auth')).toMatchObject({ ok: true });
    expect(cliLoginTarget('http://[::1]:9000/auth')).toMatchObject({
      ok: true,
      origin: 'http://[::1]:9000',
    });
  });

  it('refuses other hosts, schemes, credentials and garbage, saying why', () => {
    expect(cliLoginTarget('http://evil.example/auth')).toEqual({
      ok: false,
      reason:
        'The command-line tool can only be authorized on localhost or an IP address, not evil.example.',
    });
    expect(cliLoginTarget('http://localhost.evil.example/auth').ok).toBe(false);
    expect(cliLoginTarget('http://127.0.0.1.nip.io/auth').ok).toBe(false);
    expect(cliLoginTarget('http://999.0.0.1/auth').ok).toBe(false);
    expect(cliLoginTarget('javascript:alert(1)').ok).toBe(false);
    expect(cliLoginTarget('file:///etc/passwd').ok).toBe(false);
    expect(cliLoginTarget('http://user:pw@127.0.0.1/auth').ok).toBe(false);
    expect(cliLoginTarget('%E0%A4%A').ok).toBe(false);
    expect(cliLoginTarget('').ok).toBe(false);
    expect(cliLoginTarget('not a url').ok).toBe(false);
  });
});
