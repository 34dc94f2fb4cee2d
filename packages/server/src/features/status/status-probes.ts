import type {
  ComponentStatus,
  StatusComponent,
  StatusComponentId,
} from '@flotilla/shared/status/status';
import type { Database } from '../../infra/db/database.js';

// What one probe finds. Each probe is cheap and bounded in time: it never waits longer than
// probeTimeoutMs, so the status page answers promptly even while a subsystem hangs.
export type ProbeResult = { status: ComponentStatus; detail: string | null };
export type StatusProbe = { id: StatusComponentId; name: string; probe(): Promise<ProbeResult> };

export const probeTimeoutMs = 1_000;

export const operational: ProbeResult = { status: 'operational', detail: null };

const withTimeout = async (work: Promise<ProbeResult>, what: string): Promise<ProbeResult> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProbeResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'outage', detail: `${what} did not answer in time` }),
      probeTimeoutMs,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

// Runs every probe at once; a probe that throws counts as an outage of its component.
export const runProbes = async (probes: readonly StatusProbe[]): Promise<StatusComponent[]> =>
  Promise.all(
    probes.map(async ({ id, name, probe }) => {
      const result = await withTimeout(
        probe().catch((): ProbeResult => ({
          status: 'outage',
          detail: `${name} could not be checked`,
        })),
        name,
      );
      return { id, name, ...result };
    }),
  );

export const databaseProbe = (db: Pick<Database, 'ping'>): StatusProbe => ({
  id: 'database',
  name: 'Database',
  async probe() {
    try {
      await db.ping(probeTimeoutMs);
      return operational;
    } catch {
      return { status: 'outage', detail: 'The database does not answer' };
    }
  },
});

// An HTTP(S) registry answers /v2/ with 200 or 401 (token needed) while it works.
export const registryProbe = (
  registryUrl: () => string | undefined,
  fetchImpl: typeof fetch = fetch,
): StatusProbe => ({
  id: 'registry',
  name: 'Image registry',
  async probe() {
    const url = registryUrl();
    if (url === undefined) return { status: 'unknown', detail: 'No image registry is configured' };
    try {
      const response = await fetchImpl(`${url}/v2/`, {
        signal: AbortSignal.timeout(probeTimeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel();
      return response.status === 200 || response.status === 401
        ? operational
        : { status: 'degraded', detail: `The registry answered ${response.status}` };
    } catch {
      return { status: 'outage', detail: 'The registry does not answer' };
    }
  },
});

// Mail: the queue is the signal. A message that failed for good lately, or one waiting for a
// retry for more than a quarter of an hour, means mail is not getting through.
export const mailProbe = (db: Pick<Database, 'query'>, now: () => Date): StatusProbe => ({
  id: 'mail',
  name: 'Mail',
  async probe() {
    const at = now().getTime();
    const { rows } = await db.query<{ failed: boolean; stuck: boolean }>(
      `SELECT
         EXISTS (SELECT 1 FROM "mail_message" WHERE "status" = 'failed'
                   AND "created_at" > $1) AS "failed",
         EXISTS (SELECT 1 FROM "mail_message" WHERE "status" = 'queued' AND "attempts" > 0
                   AND "created_at" < $2) AS "stuck"`,
      [new Date(at - 60 * 60_000), new Date(at - 15 * 60_000)],
    );
    const row = rows[0];
    if (row?.failed) return { status: 'degraded', detail: 'Some messages could not be sent' };
    if (row?.stuck) return { status: 'degraded', detail: 'Messages are waiting to be retried' };
    return operational;
  },
});
