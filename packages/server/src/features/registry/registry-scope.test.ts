import { describe, expect, it } from 'vitest';
import { maxScopesPerRequest, parseScope, parseScopes, scopeValuesOf } from './registry-scope.js';

describe('registry scopes', () => {
  it('splits type, name and actions at the first and last colon', () => {
    expect(parseScope('repository:v2/0a1b:pull,push,pull')).toEqual({
      type: 'repository',
      name: 'v2/0a1b',
      actions: ['pull', 'push'],
    });
    expect(parseScope('repository(plugin):acme/x:pull').type).toBe('repository(plugin)');
    expect(parseScope('registry:catalog:*')).toEqual({
      type: 'registry',
      name: 'catalog',
      actions: ['*'],
    });
  });

  it('reads repeated and space-separated scopes, and refuses more than the limit', () => {
    expect(parseScopes(['repository:a:pull repository:b:push', 'repository:c:pull'])).toHaveLength(
      3,
    );
    expect(parseScopes([])).toEqual([]);
    const many = Array.from({ length: maxScopesPerRequest + 1 }, (_, i) => `repository:r${i}:pull`);
    expect(() => parseScopes([many.join(' ')])).toThrow(`At most ${maxScopesPerRequest} scopes`);
  });

  it('refuses repository names outside the registry grammar', () => {
    for (const name of ['UPPER', 'a//b', '-a', 'a/', 'host:5000/a']) {
      expect(() => parseScope(`repository:${name}:pull`), name).toThrow(/Invalid scope/);
    }
  });

  it('collects scope, scope[] and scope[<n>] from a query, numbered ones in index order', () => {
    expect(
      scopeValuesOf({
        service: 'registry',
        'scope[10]': 'c',
        'scope[2]': ['b1', 'b2'],
        scope: 'a',
        'scope[]': 'a2',
      }),
    ).toEqual(['a', 'a2', 'b1', 'b2', 'c']);
    expect(scopeValuesOf({ service: 'registry' })).toEqual([]);
    expect(() => scopeValuesOf({ 'scope[a]': 'x' })).toThrow(
      /Unknown query parameter 'scope\[a\]'/,
    );
    expect(() => scopeValuesOf({ 'scope[0]': 'x'.repeat(2001) })).toThrow(/longer than 2000/);
    const many = Object.fromEntries(
      Array.from({ length: maxScopesPerRequest + 1 }, (_, i) => [
        `scope[${i}]`,
        'repository:r:pull',
      ]),
    );
    expect(() => scopeValuesOf(many)).toThrow(`At most ${maxScopesPerRequest} scopes`);
  });
});
