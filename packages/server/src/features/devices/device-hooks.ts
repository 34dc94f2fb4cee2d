import { canRunArchitecture } from '@flotilla/shared/device-types/cpu-architectures';
import { type Coordinate, coordinateProblem } from '@flotilla/shared/devices/location';
import {
  isLocalModeVariable,
  isTruthyConfigValue,
  localModeBlock,
  type LocalModeDevice,
} from '@flotilla/shared/devices/local-mode';
import { badRequest } from '../../infra/errors/api-error.js';
import type { HookRegistry, Values, WriteContext } from '../../infra/odata/hooks.js';

// Business rules of the device Action menu on /v7 writes. Who may
// change which field is the field-permission table's business (field-change-rules.ts); these
// rules say which values are valid for anyone. Which releases a device can be pinned to is the
// release rules' business (features/releases/release-hooks.ts).

type ArchitectureRow = { device_type: string; device_arch: string; fleet_arch: string };

// A device moves only to a fleet whose releases its CPU runs.
const checkArchitectures = async (
  ctx: WriteContext,
  ids: readonly number[],
  fleetId: number,
): Promise<void> => {
  const { rows } = await ctx.tx.query<ArchitectureRow>(
    `SELECT DISTINCT dt."name" AS "device_type", dca."slug" AS "device_arch", fca."slug" AS "fleet_arch"
       FROM "device" d
       JOIN "device_type" dt ON dt."id" = d."is_of__device_type"
       JOIN "cpu_architecture" dca ON dca."id" = dt."is_of__cpu_architecture"
       CROSS JOIN "application" a
       JOIN "device_type" adt ON adt."id" = a."is_for__device_type"
       JOIN "cpu_architecture" fca ON fca."id" = adt."is_of__cpu_architecture"
      WHERE d."id" = ANY($1::integer[]) AND a."id" = $2 AND d."belongs_to__application" <> a."id"`,
    [[...ids], fleetId],
  );
  const refused = rows.find((row) => !canRunArchitecture(row.device_arch, row.fleet_arch));
  if (refused) {
    throw badRequest(
      `Could not find compatible cpu architecture: a ${refused.device_type} (${refused.device_arch}) cannot run the releases of a ${refused.fleet_arch} fleet`,
    );
  }
};

const checkCoordinates = (values: Values): void => {
  const fields: [string, Coordinate][] = [
    ['custom_latitude', 'latitude'],
    ['custom_longitude', 'longitude'],
    ['latitude', 'latitude'],
    ['longitude', 'longitude'],
  ];
  for (const [field, kind] of fields) {
    const value = values[field];
    if (value === undefined || value === null || value === '') continue;
    const problem = typeof value === 'string' ? coordinateProblem(kind, value) : 'not a string';
    if (problem) throw badRequest(`Invalid '${field}': ${problem}`);
  }
};

// After a move, a pin to a release of the old fleet no longer means anything: the device tracks
// its new fleet (balena does the same).
const dropForeignPins = async (ctx: WriteContext, ids: readonly number[]): Promise<void> => {
  await ctx.tx.query(
    `UPDATE "device" d SET "is_pinned_on__release" = NULL
      WHERE d."id" = ANY($1::integer[]) AND d."is_pinned_on__release" IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM "release" r WHERE r."id" = d."is_pinned_on__release"
                          AND r."belongs_to__application" = d."belongs_to__application")`,
    [[...ids]],
  );
};

const asId = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) ? value : undefined;

// Turning local mode on needs an eligible device. A device key reports the mode the device runs
// in (balena-supervisor's first report of its configuration): that is a fact, not a request.
const checkLocalMode = async (ctx: WriteContext, deviceIds: readonly number[]): Promise<void> => {
  if (ctx.actor.kind === 'device' || deviceIds.length === 0) return;
  const { rows } = await ctx.tx.query<LocalModeDevice & { device_name: string }>(
    `SELECT "device_name", "supervisor_version", "os_version", "os_variant"
       FROM "device" WHERE "id" = ANY($1::integer[]) ORDER BY "id"`,
    [[...deviceIds]],
  );
  for (const device of rows) {
    const block = localModeBlock(device);
    if (block) throw badRequest(`Cannot enable local mode on ${device.device_name}: ${block}`);
  }
};

const turnsLocalModeOn = (name: unknown, value: unknown): boolean =>
  typeof name === 'string' &&
  isLocalModeVariable(name) &&
  typeof value === 'string' &&
  isTruthyConfigValue(value);

export const registerDeviceHooks = (hooks: HookRegistry): void => {
  hooks.add('device', {
    async beforeCreate(_ctx, values) {
      checkCoordinates(values);
    },
    async beforeUpdate(ctx, ids, values) {
      checkCoordinates(values);
      const fleetId = asId(values.belongs_to__application);
      if (fleetId !== undefined) await checkArchitectures(ctx, ids, fleetId);
    },
    async afterUpdate(ctx, ids, values) {
      if (values.belongs_to__application !== undefined) await dropForeignPins(ctx, ids);
    },
  });

  hooks.add('device_config_variable', {
    async beforeCreate(ctx, values) {
      const device = asId(values.device);
      if (device !== undefined && turnsLocalModeOn(values.name, values.value)) {
        await checkLocalMode(ctx, [device]);
      }
    },
    async beforeUpdate(ctx, ids, values) {
      if (values.value === undefined && values.name === undefined) return;
      const { rows } = await ctx.tx.query<{ device: number; name: string; value: string }>(
        'SELECT "device", "name", "value" FROM "device_config_variable" WHERE "id" = ANY($1::integer[])',
        [[...ids]],
      );
      const devices = rows
        .filter((row) => turnsLocalModeOn(values.name ?? row.name, values.value ?? row.value))
        .map((row) => row.device);
      await checkLocalMode(ctx, devices);
    },
  });
};
