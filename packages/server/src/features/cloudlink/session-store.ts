import type { Database, Queryable } from '../../infra/db/database.js';

// SQL over cloudlink_node and cloudlink_session (0005-cloudlink.sql). Liveness is judged by the
// database clock, which every node shares; device timestamps use the injectable `now`.

const aliveNode = (node: string, staleParam: string): string =>
  `EXISTS (SELECT 1 FROM "cloudlink_node" n WHERE n."node_id" = ${node} AND n."seen_at" > now() - make_interval(secs => ${staleParam}::double precision))`;

export type SessionHolder = { nodeId: string; connectionId: string };

export type OpenedSession = {
  uuid: string;
  // The connection this one replaced, when the device was already connected (here or elsewhere).
  replaced: SessionHolder | undefined;
};

// Records that `nodeId` now holds the device's cloudlink and marks the device connected.
export const openSession = (
  db: Database,
  session: { deviceId: number; nodeId: string; connectionId: string; now: Date },
): Promise<OpenedSession | undefined> =>
  db.transaction(async (tx) => {
    const previous = await tx.query<SessionHolder>(
      `SELECT "node_id" AS "nodeId", "connection_id" AS "connectionId"
         FROM "cloudlink_session" WHERE "device" = $1 FOR UPDATE`,
      [session.deviceId],
    );
    const device = await tx.query<{ uuid: string }>(
      `UPDATE "device" SET "is_connected_to_vpn" = true, "last_vpn_event" = $2,
         "cloudlink_lost_at" = NULL
        WHERE "id" = $1 RETURNING "uuid"`,
      [session.deviceId, session.now],
    );
    const uuid = device.rows[0]?.uuid;
    // The device was deleted after its key was checked: nothing to hold.
    if (uuid === undefined) return undefined;
    await tx.query(
      `INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
       VALUES ($1, $2, $3, $4)
       ON CONFLICT ("device") DO UPDATE SET "node_id" = EXCLUDED."node_id",
         "connection_id" = EXCLUDED."connection_id", "connected_at" = EXCLUDED."connected_at"`,
      [session.deviceId, session.nodeId, session.connectionId, session.now],
    );
    return { uuid, replaced: previous.rows[0] };
  });

// Ends one connection's session and marks the device disconnected, unless a newer connection has
// taken over meanwhile (then the row names that one and nothing changes). True when it ended. The
// device's own link closed: it is noticed as gone 30 s later unless it comes back or calls
// (cloudlink_lost_at, 0057).
export const closeSession = async (
  db: Queryable,
  session: { deviceId: number; connectionId: string; now: Date },
): Promise<boolean> => {
  const { rowCount } = await db.query(
    `WITH gone AS (
       DELETE FROM "cloudlink_session" WHERE "device" = $1 AND "connection_id" = $2 RETURNING "device"
     )
     UPDATE "device" d SET "is_connected_to_vpn" = false, "last_vpn_event" = $3,
       "cloudlink_lost_at" = $3
       FROM gone WHERE d."id" = gone."device"`,
    [session.deviceId, session.connectionId, session.now],
  );
  return rowCount > 0;
};

// This node's heartbeat: while it is fresh, other nodes route requests for its devices to it.
// True when its row was missing: other nodes took it for dead (a heartbeat held up past the stale
// time on a busy machine) and swept its sessions, although its devices' links are still open.
export const touchNode = async (db: Queryable, nodeId: string): Promise<boolean> => {
  const { rows } = await db.query<{ inserted: boolean }>(
    `INSERT INTO "cloudlink_node" ("node_id") VALUES ($1)
     ON CONFLICT ("node_id") DO UPDATE SET "seen_at" = now()
     RETURNING (xmax = 0) AS "inserted"`,
    [nodeId],
  );
  return rows[0]?.inserted === true;
};

// The sessions of this node's open links written again after another node swept them, and their
// devices connected again; a device another node holds meanwhile keeps that node's session.
export const reassertSessions = async (
  db: Queryable,
  nodeId: string,
  held: readonly { deviceId: number; connectionId: string }[],
  now: Date,
): Promise<number> => {
  if (held.length === 0) return 0;
  const { rowCount } = await db.query(
    `WITH mine AS (
       INSERT INTO "cloudlink_session" ("device", "node_id", "connection_id", "connected_at")
       SELECT l."device", $1, l."connection_id", $4
         FROM unnest($2::integer[], $3::text[]) AS l("device", "connection_id")
         JOIN "device" d ON d."id" = l."device"
       ON CONFLICT ("device") DO NOTHING
       RETURNING "device"
     )
     UPDATE "device" d SET "is_connected_to_vpn" = true, "last_vpn_event" = $4,
       "cloudlink_lost_at" = NULL
       FROM mine WHERE d."id" = mine."device"`,
    [nodeId, held.map((link) => link.deviceId), held.map((link) => link.connectionId), now],
  );
  return rowCount;
};

// Sessions held by nodes that stopped heartbeating (a crashed or killed process) no longer count:
// they are deleted and their devices marked disconnected. Also drops the dead nodes' rows and
// replies nobody collected. Safe to run on every node at once.
export const sweepDeadNodes = async (
  db: Queryable,
  staleAfterMs: number,
  now: Date,
): Promise<number> => {
  const stale = staleAfterMs / 1000;
  const { rowCount } = await db.query(
    `WITH gone AS (
       DELETE FROM "cloudlink_session" s WHERE NOT ${aliveNode('s."node_id"', '$1')}
       RETURNING s."device"
     )
     UPDATE "device" d SET "is_connected_to_vpn" = false, "last_vpn_event" = $2
       FROM gone WHERE d."id" = gone."device"`,
    [stale, now],
  );
  await db.query(
    `DELETE FROM "cloudlink_node" WHERE "seen_at" <= now() - make_interval(secs => $1::double precision)`,
    [stale],
  );
  await db.query(`DELETE FROM "cloudlink_reply" WHERE "created_at" < now() - interval '5 minutes'`);
  return rowCount;
};

// On shutdown: every session of this node ends, its devices are disconnected, the node is gone.
export const closeNode = async (db: Queryable, nodeId: string, now: Date): Promise<void> => {
  await db.query(
    `WITH gone AS (DELETE FROM "cloudlink_session" WHERE "node_id" = $1 RETURNING "device")
     UPDATE "device" d SET "is_connected_to_vpn" = false, "last_vpn_event" = $2
       FROM gone WHERE d."id" = gone."device"`,
    [nodeId, now],
  );
  await db.query('DELETE FROM "cloudlink_node" WHERE "node_id" = $1', [nodeId]);
};

// The live node holding the device's cloudlink, if any.
export const liveHolder = async (
  db: Queryable,
  deviceId: number,
  staleAfterMs: number,
): Promise<string | undefined> => {
  const { rows } = await db.query<{ node_id: string }>(
    `SELECT s."node_id" FROM "cloudlink_session" s
      WHERE s."device" = $1 AND ${aliveNode('s."node_id"', '$2')}`,
    [deviceId, staleAfterMs / 1000],
  );
  return rows[0]?.node_id;
};

// Which of the given devices have a live cloudlink on some node.
export const liveDevices = async (
  db: Queryable,
  deviceIds: readonly number[],
  staleAfterMs: number,
): Promise<Set<number>> => {
  if (deviceIds.length === 0) return new Set();
  const { rows } = await db.query<{ device: number }>(
    `SELECT s."device" FROM "cloudlink_session" s
      WHERE s."device" = ANY($1::integer[]) AND ${aliveNode('s."node_id"', '$2')}`,
    [[...deviceIds], staleAfterMs / 1000],
  );
  return new Set(rows.map((row) => row.device));
};

// Replies too large for a NOTIFY payload travel through cloudlink_reply.
export const storeReply = async (
  db: Queryable,
  requestId: string,
  result: object,
): Promise<void> => {
  await db.query(
    `INSERT INTO "cloudlink_reply" ("request_id", "result") VALUES ($1, $2::jsonb)
     ON CONFLICT ("request_id") DO UPDATE SET "result" = EXCLUDED."result"`,
    [requestId, JSON.stringify(result)],
  );
};

export const takeReply = async (db: Queryable, requestId: string): Promise<unknown> => {
  const { rows } = await db.query<{ result: unknown }>(
    'DELETE FROM "cloudlink_reply" WHERE "request_id" = $1 RETURNING "result"',
    [requestId],
  );
  return rows[0]?.result;
};

// Which of the given nodes still heartbeat.
export const aliveNodes = async (
  db: Queryable,
  nodeIds: readonly string[],
  staleAfterMs: number,
): Promise<Set<string>> => {
  if (nodeIds.length === 0) return new Set();
  const { rows } = await db.query<{ node_id: string }>(
    `SELECT n."node_id" FROM "cloudlink_node" n
      WHERE n."node_id" = ANY($1::text[]) AND ${aliveNode('n."node_id"', '$2')}`,
    [[...nodeIds], staleAfterMs / 1000],
  );
  return new Set(rows.map((row) => row.node_id));
};

// What the device's agent said in its hello about running OS updates, kept so that an OS update
// this host cannot run is refused when it is asked for, not after it was sent. Written only when
// it changed: a hello comes with every reconnection.
export const recordHostOsUpdates = async (
  db: Queryable,
  hello: { deviceId: number; hostOsUpdates: boolean },
): Promise<void> => {
  await db.query(
    `UPDATE "device" SET "host_os_updates" = $2
      WHERE "id" = $1 AND "host_os_updates" IS DISTINCT FROM $2`,
    [hello.deviceId, hello.hostOsUpdates],
  );
};
