import type {
  OverallStatus,
  StatusAnswer,
  StatusComponent,
  StatusNotice,
} from '@flotilla/shared/status/status';
import type { Database } from '../../infra/db/database.js';
import { openNotices } from './status-notices.js';
import { runProbes, type StatusProbe } from './status-probes.js';

// How long one answer is served before the components are probed again: the page is public and
// polled by every open console, so its cost must not grow with the number of visitors.
export const statusCacheMs = 15_000;

export type StatusService = {
  current(): Promise<StatusAnswer>;
  // Forgets the cached answer (a notice was posted or resolved on this process).
  invalidate(): void;
};

const overallOf = (
  components: readonly StatusComponent[],
  notices: readonly StatusNotice[] | null,
): OverallStatus => {
  const incidents = (notices ?? []).filter((notice) => notice.kind === 'incident');
  if (
    components.some((component) => component.status === 'outage') ||
    incidents.some((notice) => notice.severity === 'major')
  ) {
    return 'outage';
  }
  if (components.some((component) => component.status === 'degraded') || incidents.length > 0) {
    return 'degraded';
  }
  if ((notices ?? []).some((notice) => notice.kind === 'maintenance')) return 'maintenance';
  return 'operational';
};

export const createStatusService = (deps: {
  db: Pick<Database, 'query'>;
  now: () => Date;
  externalUrl: string | null;
  // The database's own probe comes first: when it fails, nothing else reads the database.
  databaseProbe: StatusProbe;
  probes: readonly StatusProbe[];
}): StatusService => {
  let cached: { answer: StatusAnswer; at: number } | undefined;
  // Concurrent requests share one round of probes.
  let inFlight: Promise<StatusAnswer> | undefined;
  // Bumped by invalidate(), so a round started before it is not kept.
  let generation = 0;

  const probe = async (): Promise<StatusAnswer> => {
    const [database] = await runProbes([deps.databaseProbe]);
    const databaseUp = database?.status === 'operational';
    const others = databaseUp
      ? await runProbes(deps.probes)
      : deps.probes.map(({ id, name }): StatusComponent => ({
          id,
          name,
          status: 'unknown',
          detail: 'Not checked while the database does not answer',
        }));
    const notices = databaseUp ? await openNotices(deps.db).catch(() => null) : null;
    const api: StatusComponent = { id: 'api', name: 'API', status: 'operational', detail: null };
    const components = [api, ...(database ? [database] : []), ...others];
    return {
      status: overallOf(components, notices),
      checkedAt: deps.now().toISOString(),
      externalUrl: deps.externalUrl,
      components,
      notices,
    };
  };

  return {
    async current() {
      const at = deps.now().getTime();
      if (cached && at - cached.at < statusCacheMs) return cached.answer;
      const started = generation;
      inFlight ??= probe()
        .then((answer) => {
          if (started === generation) cached = { answer, at };
          return answer;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
      generation += 1;
      inFlight = undefined;
    },
  };
};
