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

  it('accepts localhost, loopback and private addresses', () => {
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

  it.each([
    'http://127.0.0.1:1/auth',
    'http://127.255.0.9:1/auth',
    'http://10.20.30.40:1/auth',
    'http://172.16.0.1:1/auth',
    'http://172.31.255.254:1/auth',
    'http://192.168.0.1:1/auth',
    'http://[fd12:3456::1]:1/auth',
    'http://[::ffff:127.0.0.1]:1/auth',
    'http://127.1:1/auth',
  ])('accepts %s', (url) => {
    expect(cliLoginTarget(url).ok).toBe(true);
  });

  it.each([
    'http://203.0.113.7:1/auth',
    'http://8.8.8.8/auth',
    'http://172.32.0.1:1/auth',
    'http://169.254.169.254/auth',
    'http://0.0.0.0:1/auth',
    'http://[2001:db8::1]:1/auth',
    'http://[fe80::1]:1/auth',
    'http://[::ffff:203.0.113.7]:1/auth',
    'http://3405803783/auth',
  ])('refuses the public or other address %s unless the operator allows it', (url) => {
    const target = cliLoginTarget(url);
    expect(target).toMatchObject({ ok: false });
    expect(target.ok ? '' : target.reason).toMatch(/FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS/);
  });

  it("accepts the operator's networks too, addresses or CIDR ranges", () => {
    const allowed = ['203.0.113.0/24', '2001:db8::1'];
    expect(cliLoginTarget('http://203.0.113.7:1/auth', allowed).ok).toBe(true);
    expect(cliLoginTarget('http://[2001:db8::1]:1/auth', allowed).ok).toBe(true);
    expect(cliLoginTarget('http://[2001:db8::2]:1/auth', allowed).ok).toBe(false);
    expect(cliLoginTarget('http://198.51.100.1:1/auth', allowed).ok).toBe(false);
  });

  it('refuses other hosts, schemes, credentials and garbage, saying why', () => {
    expect(cliLoginTarget('http://evil.example/auth')).toEqual({
      ok: false,
      reason:
        'The command-line tool can only be authorized on this computer (localhost) or a private network address, not evil.example. The operator can allow more networks with FLOTILLA_CLI_LOGIN_ALLOWED_NETWORKS.',
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
