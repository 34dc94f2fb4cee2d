import type { Model, Resource } from '../../model/model-types.js';
import {
  hostileJson,
  hostileNumber,
  hostileString,
  randomWord,
  urlEncode,
} from './hostile-values.js';
import type { Random } from './prng.js';

// Random /v7 requests shaped like real ones (names from the model), so the fuzz reaches the
// compiler and the database rather than stopping at the parser.

// OData functions and their arity (the parser checks it); one the engine does not know.
const functions: Record<string, number> = {
  startswith: 2,
  endswith: 2,
  contains: 2,
  substringof: 2,
  tolower: 1,
  toupper: 1,
  trim: 1,
  length: 1,
  indexof: 2,
  concat: 2,
  substring: 3,
  year: 1,
  now: 0,
  round: 1,
  ceiling: 1,
  nonsense: 1,
};
const comparisons = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];
const arithmetic = ['add', 'sub', 'mul', 'div', 'mod'];

const quote = (value: string): string => `'${value.replaceAll("'", "''")}'`;

const numbers = [
  '0',
  '1',
  '-1',
  '2',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '-99999999999999999999',
  '1.5',
  '9007199254740993',
];

// Mostly literals the parser takes (so the compiler and the database see them), now and then junk.
const literal = (random: Random): string => {
  const roll = random.next();
  if (roll < 0.45) return random.pick(numbers);
  if (roll < 0.8) {
    const text = random.chance(0.7) ? randomWord(random, 10) : hostileString(random).slice(0, 200);
    return quote(text);
  }
  if (roll < 0.9) return random.pick(['true', 'false', 'null']);
  if (roll < 0.97) {
    return `datetime'${random.pick(['2020-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59Z'])}'`;
  }
  return random.pick([
    '1e309',
    '5e-324',
    '-',
    "'unterminated",
    '()',
    '$it',
    '@alias',
    "datetime'x'",
  ]);
};

type Names = { fields: string[]; navigations: string[] };

const namesOf = (resource: Resource): Names => ({
  fields: [...resource.fields.keys()],
  navigations: [...resource.navigations.keys()],
});

const targetOf = (model: Model, resource: Resource, navigation: string): Resource =>
  model.resources.get(resource.navigations.get(navigation)?.target ?? '') ?? resource;

const fieldOrJunk = (random: Random, names: Names): string =>
  random.chance(0.9) && names.fields.length > 0 ? random.pick(names.fields) : randomWord(random);

type Scope = { model: Model; resource: Resource; variable: string | undefined };

const operandOf = (random: Random, scope: Scope): string => {
  const field = fieldOrJunk(random, namesOf(scope.resource));
  return scope.variable && random.chance(0.7) ? `${scope.variable}/${field}` : field;
};

export const filterExpression = (random: Random, scope: Scope, depth: number): string => {
  const names = namesOf(scope.resource);
  const roll = random.next();
  if (depth > 0 && roll < 0.2 && names.navigations.length > 0) {
    const navigation = random.pick(names.navigations);
    const variable = `v${String.fromCharCode(97 + (depth % 26))}${random.pick(['a', 'b', 'c'])}`;
    const inner: Scope = {
      model: scope.model,
      resource: targetOf(scope.model, scope.resource, navigation),
      variable,
    };
    const prefix = scope.variable ? `${scope.variable}/` : '';
    const method = random.pick(['any', 'all']);
    return `${prefix}${navigation}/${method}(${variable}:${filterExpression(random, inner, depth - 1)})`;
  }
  if (depth > 0 && roll < 0.35) {
    const joiner = random.pick([' and ', ' or ']);
    const parts = Array.from({ length: random.int(2, 4) }, () =>
      filterExpression(random, scope, depth - 1),
    );
    return random.chance(0.2) ? `not(${parts.join(joiner)})` : parts.join(joiner);
  }
  if (roll < 0.5) {
    const chain = Array.from(
      { length: random.int(1, 6) },
      () => ` ${random.pick(arithmetic)} ${literal(random)}`,
    );
    return `${operandOf(random, scope)}${chain.join('')} ${random.pick(comparisons)} ${literal(random)}`;
  }
  if (roll < 0.65) {
    const method = random.pick(Object.keys(functions));
    const arity = random.chance(0.9) ? (functions[method] ?? 1) : random.int(0, 3);
    const args = Array.from({ length: arity }, () =>
      random.chance(0.5) ? operandOf(random, scope) : literal(random),
    );
    const call = `${method}(${args.join(',')})`;
    return random.chance(0.5) ? call : `${call} ${random.pick(comparisons)} ${literal(random)}`;
  }
  if (roll < 0.75) {
    const items = Array.from({ length: random.int(1, 5) }, () => literal(random));
    return `${operandOf(random, scope)} in (${items.join(',')})`;
  }
  if (roll < 0.82 && names.navigations.length > 0) {
    return `${random.pick(names.navigations)}/$count ${random.pick(comparisons)} ${literal(random)}`;
  }
  if (roll < 0.9 && names.navigations.length > 0) {
    const navigation = random.pick(names.navigations);
    const target = targetOf(scope.model, scope.resource, navigation);
    return `${navigation}/${fieldOrJunk(random, namesOf(target))} ${random.pick(comparisons)} ${literal(random)}`;
  }
  return `${operandOf(random, scope)} ${random.pick(comparisons)} ${literal(random)}`;
};

const selectOption = (random: Random, names: Names): string =>
  Array.from({ length: random.int(1, 5) }, () => fieldOrJunk(random, names)).join(',');

const expandOption = (random: Random, model: Model, resource: Resource, depth: number): string => {
  const names = namesOf(resource);
  if (names.navigations.length === 0) return randomWord(random);
  const items = Array.from({ length: random.int(1, random.chance(0.05) ? 60 : 3) }, () => {
    const navigation = random.pick(names.navigations);
    const target = targetOf(model, resource, navigation);
    const options: string[] = [];
    if (random.chance(0.3)) options.push(`$select=${selectOption(random, namesOf(target))}`);
    if (random.chance(0.3)) {
      options.push(
        `$filter=${filterExpression(random, { model, resource: target, variable: undefined }, 2)}`,
      );
    }
    if (random.chance(0.2)) options.push(`$top=${String(hostileNumber(random))}`);
    if (depth > 0 && random.chance(0.5)) {
      options.push(`$expand=${expandOption(random, model, target, depth - 1)}`);
    }
    if (random.chance(0.1)) return `${navigation}/$count`;
    return options.length > 0 ? `${navigation}(${options.join(';')})` : navigation;
  });
  return items.join(',');
};

const keyOf = (random: Random, ids: readonly number[]): string =>
  random.pick([
    `(${String(random.pick(ids))})`,
    `(${String(hostileNumber(random))})`,
    `(${quote(hostileString(random).slice(0, 100))})`,
    `(uuid=${quote(randomWord(random, 32))})`,
    `(nonsense=1)`,
    '(',
  ]);

// OData's own punctuation stays as is, spaces become %20 and everything else is percent-encoded,
// as the SDK sends it; now and then the whole option is encoded, or not at all.
const encodeOption = (random: Random, text: string): string => {
  const roll = random.next();
  if (roll < 0.1) return urlEncode(text);
  if (roll < 0.15) return text;
  return [...text]
    .map((char) => {
      if (char === ' ') return '%20';
      if (/[A-Za-z0-9_\-.~()/',$=:;*@!]/.test(char)) return char;
      return urlEncode(char);
    })
    .join('');
};

export type ODataCall = { method: string; url: string; body: unknown };

export const odataCall = (
  random: Random,
  model: Model,
  method: string,
  ids: readonly number[],
): ODataCall => {
  const resources = [...model.resources.values()];
  const resource = random.pick(resources);
  const name = random.chance(0.95) ? resource.name : hostileString(random).slice(0, 50);
  let path = `/v7/${urlEncode(name)}`;
  if (random.chance(method === 'POST' ? 0.05 : 0.3)) path += keyOf(random, ids);
  if (method === 'GET' && random.chance(0.1)) path += '/$count';
  const options: string[] = [];
  const scope: Scope = { model, resource, variable: undefined };
  const needsTarget = method === 'PATCH' || method === 'PUT' || method === 'DELETE';
  if (random.chance(needsTarget && !path.endsWith(')') ? 0.95 : 0.6))
    options.push(
      `$filter=${encodeOption(random, filterExpression(random, scope, random.int(0, 7)))}`,
    );
  if (method === 'GET') {
    if (random.chance(0.4))
      options.push(`$select=${encodeOption(random, selectOption(random, namesOf(resource)))}`);
    if (random.chance(0.4))
      options.push(
        `$expand=${encodeOption(random, expandOption(random, model, resource, random.int(0, 8)))}`,
      );
    if (random.chance(0.3)) {
      options.push(
        `$orderby=${encodeOption(random, `${operandOf(random, scope)} ${random.pick(['asc', 'desc', ''])}`)}`,
      );
    }
    if (random.chance(0.3))
      options.push(
        `$top=${urlEncode(String(random.chance(0.8) ? hostileNumber(random) : hostileString(random)))}`,
      );
    if (random.chance(0.2)) options.push(`$skip=${String(hostileNumber(random))}`);
  }
  if (random.chance(0.1))
    options.push(`$${randomWord(random, 6)}=${urlEncode(hostileString(random).slice(0, 50))}`);
  const url = options.length > 0 ? `${path}?${options.join('&')}` : path;
  const fields = namesOf(resource).fields;
  const body =
    method === 'POST' || method === 'PATCH' || method === 'PUT'
      ? random.chance(0.9)
        ? Object.fromEntries(
            Array.from({ length: random.int(0, 5) }, () => [
              random.chance(0.9) ? random.pick(fields) : hostileString(random),
              random.chance(0.3) ? random.pick(ids) : hostileJson(random, fields, 2),
            ]),
          )
        : hostileJson(random, fields, 3)
      : undefined;
  return { method, url, body };
};
