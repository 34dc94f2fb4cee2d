import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createBatcher } from './reference-batcher.js';

// The reference for state reports: the device columns of every report waiting are written by one
// UPDATE ... FROM unnest(...), with the contact time. In steady state the apps section repeats
// what is stored, so a minimal server writes nothing for it (and this one ignores it).

type Reported = {
  uuid: string;
  status: string | null;
  osVersion: string | null;
  supervisorVersion: string | null;
  ipAddress: string | null;
  cpuUsage: number | null;
  cpuTemp: number | null;
  memoryUsage: number | null;
  storageUsage: number | null;
};

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const whole = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;

const updateSql = `
  UPDATE "device" d SET
    "status" = coalesce(u."status", d."status"),
    "os_version" = coalesce(u."os_version", d."os_version"),
    "supervisor_version" = coalesce(u."supervisor_version", d."supervisor_version"),
    "ip_address" = coalesce(u."ip_address", d."ip_address"),
    "cpu_usage" = coalesce(u."cpu_usage", d."cpu_usage"),
    "cpu_temp" = coalesce(u."cpu_temp", d."cpu_temp"),
    "memory_usage" = coalesce(u."memory_usage", d."memory_usage"),
    "storage_usage" = coalesce(u."storage_usage", d."storage_usage"),
    "last_contact_at" = now()
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[])
    AS u("uuid", "status", "os_version", "supervisor_version", "ip_address", "cpu_usage", "cpu_temp", "memory_usage", "storage_usage")
  WHERE d."uuid" = u."uuid"`;

export const registerReferenceState = (app: FastifyInstance, pool: pg.Pool): void => {
  const batcher = createBatcher<Reported>(
    async (items) => {
      await pool.query(updateSql, [
        items.map((item) => item.uuid),
        items.map((item) => item.status),
        items.map((item) => item.osVersion),
        items.map((item) => item.supervisorVersion),
        items.map((item) => item.ipAddress),
        items.map((item) => item.cpuUsage),
        items.map((item) => item.cpuTemp),
        items.map((item) => item.memoryUsage),
        items.map((item) => item.storageUsage),
      ]);
    },
    4,
    1000,
  );

  app.patch('/ref/state', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null) return reply.status(400).send();
    const writes = Object.entries(body).map(([uuid, report]: [string, unknown]) => {
      const fields: Record<string, unknown> =
        typeof report === 'object' && report !== null ? { ...report } : {};
      return batcher.add({
        uuid,
        status: text(fields.status),
        osVersion: text(fields.os_version),
        supervisorVersion: text(fields.supervisor_version),
        ipAddress: text(fields.ip_address),
        cpuUsage: whole(fields.cpu_usage),
        cpuTemp: whole(fields.cpu_temp),
        memoryUsage: whole(fields.memory_usage),
        storageUsage: whole(fields.storage_usage),
      });
    });
    await Promise.all(writes);
    return reply.status(200).send();
  });
};
