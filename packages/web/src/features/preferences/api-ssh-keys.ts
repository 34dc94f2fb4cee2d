import type { FlotillaClient } from '@flotilla/sdk/create-client';
import type { SshKeyImportResult } from '@flotilla/shared/ssh-keys/ssh-key-rules';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { preferenceKeys } from './query-keys.js';

// The user's own SSH keys (only their own rows are readable), newest last.
const fetchSshKeys = (client: FlotillaClient, userId: number) =>
  client.pine.get({
    resource: 'user__has__public_key',
    options: {
      $select: ['id', 'title', 'public_key', 'fingerprint', 'created_at'],
      $filter: { user: userId },
      $orderby: [{ created_at: 'asc' }, { id: 'asc' }],
    },
  });

export type SshKeyRow = Awaited<ReturnType<typeof fetchSshKeys>>[number];

const addSshKey = (
  client: FlotillaClient,
  userId: number,
  key: { title: string; publicKey: string },
) =>
  client.pine.post({
    resource: 'user__has__public_key',
    body: { user: userId, title: key.title.trim(), public_key: key.publicKey.trim() },
  });

export const useSshKeys = (userId: number | undefined) => {
  const client = useClient();
  return useQuery({
    queryKey: preferenceKeys.sshKeys(userId),
    queryFn: () => (userId === undefined ? [] : fetchSshKeys(client, userId)),
  });
};

export const useReloadSshKeys = (userId: number | undefined) => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: preferenceKeys.sshKeys(userId) });
};

// Removing a key; the list reloads whether it worked or not.
export const useRemoveSshKey = ({
  reload,
  onRemoved,
}: {
  reload: () => Promise<unknown>;
  onRemoved: (key: SshKeyRow) => void;
}) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (key: SshKeyRow) =>
      client.pine.delete({ resource: 'user__has__public_key', id: key.id }),
    onSuccess: (_result, key) => onRemoved(key),
    onSettled: reload,
  });
};

export const useAddSshKey = (userId: number, onAdded: () => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: (key: { title: string; publicKey: string }) => addSshKey(client, userId, key),
    onSuccess: onAdded,
  });
};

const isImportResult = (value: unknown): value is SshKeyImportResult =>
  typeof value === 'object' &&
  value !== null &&
  'saved' in value &&
  typeof value.saved === 'number' &&
  'alreadySaved' in value &&
  typeof value.alreadySaved === 'number' &&
  'failed' in value &&
  typeof value.failed === 'number';

// Imports the public keys of a GitHub account; the answer says how many were added.
export const useImportSshKeys = (onImported: () => void) => {
  const client = useClient();
  return useMutation({
    meta: { inlineError: true },
    mutationFn: async (username: string) => {
      const result = await client.request<unknown>({
        method: 'POST',
        path: '/user/v1/public-keys/import',
        body: { username },
      });
      if (!isImportResult(result)) throw new Error('The server answered no import result');
      return result;
    },
    onSuccess: onImported,
  });
};
