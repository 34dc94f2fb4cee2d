import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { init } from '@balena/pinejs';
import express from 'express';

// `@balena/pinejs` (balena's own OData engine) serving the bench's rows from a database of its
// own, in a process of its own (forked by pinejs-process.ts; plain JavaScript, since pinejs's
// express 4 types do not fit the express 5 types the workspace has). The model (flotilla.sbvr) covers
// what the compared reads read. Every request carrying the member's token runs as the member,
// with balena-API-like permission strings whose filters name the actor (`@__ACTOR_ID`), so
// pinejs applies the same row filter as Flotilla's fleet_access; anything else is a guest with
// no permission.

const token = process.env.PINEJS_MEMBER_TOKEN;
const actor = Number(process.env.PINEJS_MEMBER_ACTOR);
if (!process.env.DATABASE_URL || !token || !Number.isInteger(actor)) {
  throw new Error('DATABASE_URL, PINEJS_MEMBER_TOKEN and PINEJS_MEMBER_ACTOR are required');
}

// The fleets a member reaches: those their access rows (copied from fleet_access) name.
const memberOf = 'is_accessible_by__member/any(m:m/member/actor_number eq @__ACTOR_ID)';
const memberPermissions = [
  `flotilla.application.read?${memberOf}`,
  `flotilla.device.read?belongs_to__application/any(a:a/${memberOf})`,
  `flotilla.release.read?belongs_to__application/any(a:a/${memberOf})`,
  'flotilla.device_type.read',
];

const modelText = await readFile(
  fileURLToPath(new URL('./flotilla.sbvr', import.meta.url)),
  'utf8',
);

const app = express();
// pinejs reads an API key from the body as well: it needs a parsed (if empty) one.
app.use(express.json());
app.use((request, _response, next) => {
  if (request.headers.authorization === `Bearer ${token}`) {
    request.user = { id: actor, actor, permissions: memberPermissions };
  }
  next();
});

await init(app, {
  models: [{ modelName: 'flotilla', modelText, apiRoot: 'flotilla' }],
  users: [{ username: 'guest', password: ' ', permissions: [] }],
});

const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${address.port}` });
});
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
