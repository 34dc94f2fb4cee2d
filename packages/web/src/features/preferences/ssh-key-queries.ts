import type { FlotillaClient } from '@flotilla/sdk/create-client';

export const sshKeysKey = (userId: number | undefined) => ['ssh-keys', userId] as const;

// The user's own SSH keys (only their own rows are readable), newest last.
export const fetchSshKeys = (client: FlotillaClient, userId: number) =>
  client.pine.get({
    resource: 'user__has__public_key',
    options: {
      $select: ['id', 'title', 'public_key', 'fingerprint', 'created_at'],
      $filter: { user: userId },
      $orderby: [{ created_at: 'asc' }, { id: 'asc' }],
    },
  });

export type SshKeyRow = Awaited<ReturnType<typeof fetchSshKeys>>[number];

export const addSshKey = (
  client: FlotillaClient,
  userId: number,
  key: { title: string; publicKey: string },
) =>
  client.pine.post({
    resource: 'user__has__public_key',
    body: { user: userId, title: key.title.trim(), public_key: key.publicKey.trim() },
  });
