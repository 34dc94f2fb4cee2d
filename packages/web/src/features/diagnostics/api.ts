import type { FlotillaClient } from '@flotilla/sdk/create-client';
import { actionsServicePath } from '@flotilla/shared/diagnostics/actions-service';
import type { TargetStateApiVersion } from '@flotilla/shared/devices/device-panel-constants';
import type { DiagnosticAction, DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { pollingWhile } from '../../ui/polling.js';
import { refreshInterval } from './diagnostic-runs.js';
import { diagnosticsKeys } from './query-keys.js';

const runPath = (uuid: string, run: string): string =>
  `${actionsServicePath}/v1/${encodeURIComponent(uuid)}/${run}`;

// The newest run of the action, or null when none ran yet (the service answers null).
const fetchLatestRun = (
  client: FlotillaClient,
  uuid: string,
  action: DiagnosticAction,
): Promise<DiagnosticRun | null> =>
  client.request<DiagnosticRun | null>({ path: runPath(uuid, action) });

const startRun = (
  client: FlotillaClient,
  uuid: string,
  action: DiagnosticAction,
): Promise<DiagnosticRun> =>
  client.request<DiagnosticRun>({ method: 'POST', path: runPath(uuid, action), body: {} });

// The newest run of the action, read again while it is in progress.
export const useLatestRun = (uuid: string, action: DiagnosticAction) => {
  const client = useClient();
  return useQuery({
    queryKey: diagnosticsKeys.run(uuid, action),
    queryFn: () => fetchLatestRun(client, uuid, action),
    ...pollingWhile((data: DiagnosticRun | null | undefined) => refreshInterval(action, data)),
  });
};

// Starts a run; its answer is the newest run until the next read.
export const useStartRun = (uuid: string, action: DiagnosticAction) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startRun(client, uuid, action),
    onSuccess: (started) => queryClient.setQueryData(diagnosticsKeys.run(uuid, action), started),
  });
};

// The device's current state, from its supervisor over the cloudlink.
export const useCurrentState = (uuid: string) => {
  const client = useClient();
  return useQuery({
    queryKey: diagnosticsKeys.currentState(uuid),
    queryFn: () =>
      client.request<unknown>({ method: 'POST', path: '/supervisor/v1/device', body: { uuid } }),
  });
};

export const noTargetMessage = 'No target received';

// An answer with nothing in it (no body, or an empty object) carries no target state.
const isEmptyAnswer = (answer: unknown): boolean =>
  answer === null ||
  answer === undefined ||
  answer === '' ||
  (typeof answer === 'object' && !Array.isArray(answer) && Object.keys(answer).length === 0);

// The target state the server computes for the device, in the shape its supervisor reads (v2
// before supervisor 13.0.0, else v3).
export const useTargetState = (uuid: string, version: TargetStateApiVersion) => {
  const client = useClient();
  return useQuery({
    queryKey: diagnosticsKeys.targetState(uuid, version),
    queryFn: async () => {
      const target = await client.request<unknown>({
        path: `/device/${version}/${encodeURIComponent(uuid)}/state`,
      });
      if (isEmptyAnswer(target)) throw new Error(noTargetMessage);
      return target;
    },
  });
};
