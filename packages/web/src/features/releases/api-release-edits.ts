import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useClient } from '../../api/client.js';
import { releaseKeys } from './query-keys.js';

// Release writes. Each refreshes the fleet's queries (the release pages live under the fleet's
// key), so the list, the release page and the fleet's own pages show the change.

// Saves the known issues (an empty text clears them); the form shows a failure inline.
export const useSaveKnownIssues = (fleetId: number, releaseId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (text: string) =>
      await client.pine.patch({
        resource: 'release',
        id: releaseId,
        body: { known_issue_list: text.trim() === '' ? null : text.trim() },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) }),
  });
};

// Saves the release note (the debounced saver of the notes field calls it).
export const useSaveReleaseNote = (fleetId: number, releaseId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useCallback(
    async (text: string) => {
      await client.pine.patch({ resource: 'release', id: releaseId, body: { note: text } });
      void queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) });
    },
    [client, queryClient, fleetId, releaseId],
  );
};

export type ReleasePatch =
  | { semver: string }
  | { is_invalidated: boolean }
  | { is_final: true }
  | { status: 'cancelled'; end_timestamp: string };

// Changes the release (version, validity, finalization, cancellation); the fleet refreshes
// whether it worked or not.
export const usePatchRelease = (fleetId: number, releaseId: number, onPatched: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReleasePatch) =>
      await client.pine.patch({ resource: 'release', id: releaseId, body }),
    onSuccess: onPatched,
    onSettled: () => queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) }),
  });
};

// Deletes the release: `announce` says so, the fleet's queries refresh, then `leave` navigates
// away from the page of the release that is gone.
export const useDeleteRelease = (
  fleetId: number,
  releaseId: number,
  { announce, leave }: { announce: () => void; leave: () => Promise<void> },
) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => await client.pine.delete({ resource: 'release', id: releaseId }),
    onSuccess: async () => {
      announce();
      await queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) });
      await leave();
    },
  });
};

export type ReleaseTagInput = { key: string; value: string };

// Adds a tag to the release; `onAdded` runs before the refresh (it empties the form).
export const useAddReleaseTag = (fleetId: number, releaseId: number, onAdded: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (tag: ReleaseTagInput) =>
      await client.pine.post({
        resource: 'release_tag',
        body: { release: releaseId, tag_key: tag.key, value: tag.value },
      }),
    onSuccess: async () => {
      onAdded();
      await queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) });
    },
  });
};

// Removes a tag of the release; the fleet refreshes whether it worked or not.
export const useRemoveReleaseTag = (fleetId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (tagId: number) =>
      await client.pine.delete({ resource: 'release_tag', id: tagId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: releaseKeys.fleet(fleetId) }),
  });
};
