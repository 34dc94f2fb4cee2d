import { badRequest } from '../../infra/errors/api-error.js';

// One resource scope of a registry token request (Docker token auth): `type:name:actions`, e.g.
// `repository:v2/0123abcd:pull,push`. The name may itself hold colons (a host with a port), so the
// type ends at the first colon and the actions start after the last.
export type RequestedScope = { type: string; name: string; actions: string[] };

// Enough for any docker or balena-cli push of a whole release; more is not a real client.
export const maxScopesPerRequest = 100;

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

// Every scope of a request: `scope` may repeat, and one value may hold several scopes separated
// by spaces (RFC 6749's scope syntax, which some clients use).
export const parseScopes = (values: readonly string[]): RequestedScope[] => {
  const scopes = values.flatMap((value) => value.split(' ')).filter((scope) => scope !== '');
  if (scopes.length > maxScopesPerRequest) {
    throw badRequest(`At most ${maxScopesPerRequest} scopes may be requested at once`);
  }
  return scopes.map(parseScope);
};
