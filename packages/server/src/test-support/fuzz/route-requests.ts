import type { HTTPMethods } from 'fastify';
import type { Model } from '../../model/model-types.js';
import type { FuzzWorld } from './fuzz-world.js';
import {
  deeplyNested,
  hostileJson,
  hostileNumber,
  hostileObject,
  hostileString,
  rawUrlJunk,
  urlEncode,
} from './hostile-values.js';
import { odataCall } from './odata-requests.js';
import type { Random } from './prng.js';

export type Route = { method: HTTPMethods; url: string };

export type FuzzRequest = {
  method: HTTPMethods;
  url: string;
  headers: Record<string, string>;
  // Sent as is (already serialised).
  payload: string | undefined;
};

// Names the non-/v7 routes read from queries and bodies (wire contract), so generated requests
// get past "unknown field" now and then.
const knownKeys = [
  'username',
  'password',
  'email',
  'uuid',
  'deviceId',
  'appId',
  'application',
  'user',
  'device_type',
  'deviceType',
  'api_key',
  'name',
  'description',
  'expiryDate',
  'data',
  'force',
  'imageId',
  'serviceName',
  'roles',
  'actorType',
  'actorTypeId',
  'count',
  'start',
  'version',
  'network',
  'appUpdatePollInterval',
  'provisioningKeyName',
  'provisioningKeyExpiryDate',
  'wifiSsid',
  'developmentMode',
  'apikey',
  'message',
  'timestamp',
  'local',
  'dependent',
  'apps',
  'tags',
  'token',
  'captcha',
  'is_online',
  'os_version',
  'supervisor_version',
];

// A value for one `:param` of a route: a real one of the world, or a hostile one.
const pathParam = (random: Random, world: FuzzWorld, name: string): string => {
  const roll = random.next();
  if (roll < 0.4) {
    if (name.toLowerCase().includes('uuid')) return random.pick(world.uuids);
    if (name === 'slug' || name === 'page') return urlEncode(random.pick(world.slugs));
    return String(random.pick(world.ids));
  }
  if (roll < 0.55) return random.pick(rawUrlJunk);
  if (roll < 0.7) return String(hostileNumber(random));
  return urlEncode(hostileString(random).slice(0, 2_000));
};

const queryString = (random: Random, world: FuzzWorld): string => {
  const parts: string[] = [];
  for (let i = random.int(0, 4); i > 0; i--) {
    const key = random.chance(0.8)
      ? random.pick(knownKeys)
      : urlEncode(hostileString(random).slice(0, 40));
    // stream=1 keeps a log stream open by design; everything else about it is fuzzed.
    if (key === 'stream') continue;
    const value = random.chance(0.3)
      ? String(random.pick([...world.ids, ...world.uuids]))
      : random.chance(0.2)
        ? random.pick(rawUrlJunk)
        : urlEncode(
            String(
              random.chance(0.5) ? hostileNumber(random) : hostileString(random).slice(0, 3_000),
            ),
          );
    parts.push(`${key}=${value}`);
    // The same key twice arrives as an array.
    if (random.chance(0.1)) parts.push(`${key}=${value}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
};

const withBody = (method: HTTPMethods): boolean => method !== 'GET' && method !== 'HEAD';

const bodyPayload = (random: Random, body: unknown): { payload: string; contentType: string } => {
  const roll = random.next();
  if (roll < 0.06) return { payload: '{"broken": ', contentType: 'application/json' };
  if (roll < 0.1) return { payload: deeplyNested(random), contentType: 'application/json' };
  if (roll < 0.14) {
    return {
      payload: hostileString(random),
      contentType: random.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/x-ndjson',
        'application/octet-stream',
      ]),
    };
  }
  return { payload: JSON.stringify(body) ?? 'null', contentType: 'application/json' };
};

// One hostile request for a route: its `:params` and `*` filled, a query, a body for writes.
export const requestFor = (
  random: Random,
  route: Route,
  world: FuzzWorld,
  model: Model,
  authorization: string | undefined,
): FuzzRequest => {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (random.chance(0.05))
    headers['if-none-match'] = hostileString(random)
      .slice(0, 200)
      .replace(/[^\x20-\x7e]/g, '');
  let url: string;
  let body: unknown;
  if (route.url.startsWith('/v7/')) {
    const call = odataCall(random, model, route.method, world.ids);
    url = call.url;
    body = call.body;
  } else {
    url = route.url
      .split('/')
      .map((segment) => {
        if (segment.startsWith(':')) return pathParam(random, world, segment.slice(1));
        if (segment === '*') return urlEncode(hostileString(random).slice(0, 200));
        return segment;
      })
      .join('/');
    url += queryString(random, world);
    body = random.chance(0.85)
      ? hostileObject(random, knownKeys, 2)
      : hostileJson(random, knownKeys, 3);
    if (random.chance(0.2) && typeof body === 'object' && body !== null && !Array.isArray(body)) {
      // Real identifiers now and then, so handlers get past their first lookup.
      Object.assign(body, {
        uuid: random.pick(world.uuids),
        appId: random.pick(world.ids),
        username: random.pick(world.usernames),
      });
    }
  }
  if (!withBody(route.method) || random.chance(0.05)) {
    return { method: route.method, url, headers, payload: undefined };
  }
  const { payload, contentType } = bodyPayload(random, body);
  headers['content-type'] = contentType;
  return { method: route.method, url, headers, payload };
};
