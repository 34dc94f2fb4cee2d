import { badRequest } from '../../infra/errors/api-error.js';

// One resource scope of a registry token request (Docker token auth): `type:name:actions`, e.g.
// `repository:v2/0123abcd:pull,push`. The name may itself hold colons (a host with a port), so the
// type ends at the first colon and the actions start after the last.
export type RequestedScope = { type: string; name: string; actions: string[] };

// Enough for any docker or balena-cli push of a whole release; more is not a real client.
export const maxScopesPerRequest = 100;
const maxScopeValueLength = 2000;

const typePattern = /^[a-z0-9]+(?:\([a-z0-9]+\))?$/;
const actionPattern = /^(?:[a-z]+|\*)$/;
// distribution's repository name grammar: lowercase path components joined by separators.
const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const repositoryPattern = new RegExp(`^${component}(?:/${component})*$`);
const maxNameLength = 255;

const malformed = (scope: string, why: string) =>
  badRequest(
    `Invalid scope '${scope.slice(0, 300)}': ${why}; expected <type>:<name>:<actions>, e.g. repository:v2/0123abcd:pull,push`,
  );

export const parseScope = (scope: string): RequestedScope => {
  const first = scope.indexOf(':');
  const last = scope.lastIndexOf(':');
  if (first <= 0 || last === first) throw malformed(scope, 'it needs a type, a name and actions');
  const type = scope.slice(0, first);
  const name = scope.slice(first + 1, last);
  const actions = scope.slice(last + 1).split(',');
  if (!typePattern.test(type)) throw malformed(scope, `'${type}' is not a resource type`);
  if (name === '' || name.length > maxNameLength) {
    throw malformed(scope, `the name must be 1 to ${maxNameLength} characters`);
  }
  if (type === 'repository' && !repositoryPattern.test(name)) {
    throw malformed(scope, `'${name}' is not a repository name`);
  }
  if (actions.some((action) => !actionPattern.test(action))) {
    throw malformed(scope, 'the actions must be a comma-separated list such as pull,push');
  }
  return { type, name, actions: [...new Set(actions)] };
};

// The scope values of a token request's query, in the order the client listed them, whatever form
// its query library gave the list: `scope` repeated (docker), `scope[0]`, `scope[1]`… (balena-cli,
// through balena-request's `qs`), or `scope[]`. A `scope[…]` key of any other shape is refused.
export const scopeValuesOf = (query: Readonly<Record<string, unknown>>): string[] => {
  const indexed: { index: number; values: string[] }[] = [];
  for (const [key, value] of Object.entries(query)) {
    const bracket = /^scope\[(\d*)\]$/.exec(key);
    if (key !== 'scope' && bracket === null) {
      if (key.startsWith('scope')) {
        throw badRequest(
          `Unknown query parameter '${key.slice(0, 40)}': expected scope, scope[] or scope[<n>]`,
        );
      }
      continue;
    }
    const values = [value].flat();
    if (!values.every((entry): entry is string => typeof entry === 'string')) {
      throw badRequest(`${key.slice(0, 40)} must be a string`);
    }
    if (values.some((entry) => entry.length > maxScopeValueLength)) {
      throw badRequest(`${key.slice(0, 40)} is longer than ${maxScopeValueLength} characters`);
    }
    // `scope` and `scope[]` keep their place before the numbered ones (index -1).
    const index = bracket === null || bracket[1] === '' ? -1 : Number(bracket[1]);
    if (index > maxScopesPerRequest * 10) throw badRequest(`${key.slice(0, 40)}: index too large`);
    indexed.push({ index, values });
  }
  if (indexed.reduce((count, entry) => count + entry.values.length, 0) > maxScopesPerRequest) {
    throw badRequest(`At most ${maxScopesPerRequest} scopes may be requested at once`);
  }
  return indexed.sort((a, b) => a.index - b.index).flatMap((entry) => entry.values);
};

// Every scope of a request: `scope` may repeat, and one value may hold several scopes separated
// by spaces (RFC 6749's scope syntax, which some clients use).
export const parseScopes = (values: readonly string[]): RequestedScope[] => {
  const scopes = values.flatMap((value) => value.split(' ')).filter((scope) => scope !== '');
  if (scopes.length > maxScopesPerRequest) {
    throw badRequest(`At most ${maxScopesPerRequest} scopes may be requested at once`);
  }
  return scopes.map(parseScope);
};
