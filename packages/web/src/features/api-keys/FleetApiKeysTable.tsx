import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { absoluteTime } from '../../device/device-format.js';
import { RowAction } from '../../ui/RowActions.js';
import { EntityTable } from '../../ui/entity-list/EntityTable.js';
import type { ApiKeyRow } from './api.js';
import { expiryText } from './api-key-rules.js';

// What a key is called in the list and in messages: its name, or its id when it has none.
export const keyLabel = (key: ApiKeyRow): string => key.name ?? `Key ${key.id}`;

// The fleet's provisioning keys with their name, description, creation and expiry (as of `now`);
// rename and revoke, each disabled with the reason when the user may not.
export const FleetApiKeysTable = ({
  keys,
  now,
  renameDenied,
  revokeDenied,
  onRename,
  onRevoke,
}: {
  keys: readonly ApiKeyRow[];
  now: number;
  renameDenied: string | null;
  revokeDenied: string | null;
  onRename: (key: ApiKeyRow) => void;
  onRevoke: (key: ApiKeyRow) => void;
}) => (
  <EntityTable
    label="Provisioning keys"
    size="small"
    frame="container"
    rows={keys}
    emptyText="No provisioning keys yet"
    columns={[
      {
        key: 'name',
        header: 'Name',
        cellProps: { sx: { overflowWrap: 'anywhere', maxWidth: 240 } },
        cell: keyLabel,
      },
      {
        key: 'description',
        header: 'Description',
        cellProps: { sx: { overflowWrap: 'anywhere', maxWidth: 320 } },
        cell: (key) => key.description ?? '',
      },
      { key: 'created', header: 'Created', cell: (key) => absoluteTime(key.created_at) },
      { key: 'expires', header: 'Expires', cell: (key) => expiryText(key.expiry_date, now) },
    ]}
    rowActions={{
      cellProps: { sx: { whiteSpace: 'nowrap' } },
      cell: (key) => (
        <>
          <RowAction
            label={`Rename ${keyLabel(key)}`}
            title="Rename"
            icon={<EditIcon fontSize="small" />}
            denied={renameDenied}
            onClick={() => onRename(key)}
          />
          <RowAction
            label={`Revoke ${keyLabel(key)}`}
            title="Revoke"
            icon={<DeleteIcon fontSize="small" />}
            denied={revokeDenied}
            onClick={() => onRevoke(key)}
          />
        </>
      ),
    }}
  />
);
