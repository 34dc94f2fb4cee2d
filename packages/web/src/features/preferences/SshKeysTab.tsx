import { errorText } from '@flotilla/sdk/errors';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';
import { absoluteTime } from '../../device/device-format.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { AddSshKeyDialog } from './AddSshKeyDialog.js';
import { ImportSshKeysDialog } from './ImportSshKeysDialog.js';
import { type SshKeyRow, useReloadSshKeys, useRemoveSshKey, useSshKeys } from './api-ssh-keys.js';

// Preferences → SSH keys: the user's keys with their md5
// fingerprint, add one, import a GitHub account's keys, remove one.
export const SshKeysTab = () => {
  const session = useSession();
  const toasts = useToasts();
  const userId = session?.userId;
  const keys = useSshKeys(userId);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [removing, setRemoving] = useState<SshKeyRow | null>(null);
  const reload = useReloadSshKeys(userId);
  const remove = useRemoveSshKey({
    reload,
    onRemoved: (key) => {
      toasts.show('success', `${key.title} was removed`);
      setRemoving(null);
    },
  });

  if (keys.isPending) return <LoadingScreen label="Loading the SSH keys" />;
  if (keys.isError) {
    return <Alert severity="error">{errorText(keys.error) ?? 'Could not load the keys'}</Alert>;
  }
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography>SSH keys let you open a shell on your devices.</Typography>
        {userId !== undefined ? (
          <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
            <Button onClick={() => setImporting(true)}>Import from GitHub</Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              Add SSH key
            </Button>
          </Stack>
        ) : null}
      </Stack>
      <EntityTable
        label="SSH keys"
        size="small"
        rows={keys.data}
        emptyText="No SSH keys yet"
        columns={[
          {
            key: 'title',
            header: 'Title',
            cellProps: { sx: { overflowWrap: 'anywhere' } },
            cell: (key) => key.title,
          },
          {
            key: 'fingerprint',
            header: 'Fingerprint',
            cellProps: { sx: { fontFamily: 'monospace', overflowWrap: 'anywhere' } },
            cell: (key) => key.fingerprint ?? '—',
          },
          { key: 'added', header: 'Added', cell: (key) => absoluteTime(key.created_at) },
        ]}
        rowActions={{
          cell: (key) => (
            <IconButton aria-label={`Remove ${key.title}`} onClick={() => setRemoving(key)}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          ),
        }}
      />
      {userId !== undefined ? (
        <AddSshKeyDialog
          open={adding}
          userId={userId}
          onAdded={() => {
            setAdding(false);
            void reload();
          }}
          onClose={() => setAdding(false)}
        />
      ) : null}
      <ImportSshKeysDialog
        open={importing}
        onImported={() => void reload()}
        onClose={() => setImporting(false)}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove SSH key"
        items={removing ? [removing.title] : []}
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => {
          if (removing) remove.mutate(removing);
        }}
        onClose={() => {
          setRemoving(null);
          remove.reset();
        }}
      >
        Devices stop accepting this key for new SSH sessions.
      </ConfirmDialog>
    </Stack>
  );
};
