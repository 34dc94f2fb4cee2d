import { type AuditEntry, auditActionLabel } from '@flotilla/shared/audit-log/audit-entry';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

const actorText = (entry: AuditEntry): string => {
  const { actor } = entry;
  const who =
    actor.kind === 'user'
      ? (actor.username ?? `user ${actor.userId ?? '?'}`)
      : actor.kind === 'device'
        ? `device ${actor.deviceId ?? '?'}`
        : actor.kind === 'application'
          ? `provisioning key of fleet ${actor.fleetId ?? '?'}`
          : 'anonymous';
  const via = actor.via === null || actor.via === 'session' ? '' : ` (${actor.via})`;
  const behind =
    actor.impersonatedBy === null
      ? ''
      : ` — as ${actor.impersonatedByUsername ?? `user ${actor.impersonatedBy}`}`;
  return `${who}${via}${behind}`;
};

const valueText = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

// "field: old → new" per changed field, or the event's details ("params: id=4"); details with
// nothing in them (a route without parameters) are left out rather than shown empty.
const changeText = (field: string, change: unknown): string | null => {
  if (typeof change !== 'object' || change === null || Array.isArray(change)) {
    return `${field}: ${valueText(change)}`;
  }
  const sides = new Map(Object.entries(change));
  if (!sides.has('old') && !sides.has('new')) {
    if (sides.size === 0) return null;
    const pairs = [...sides].map(([name, value]) => `${name}=${valueText(value)}`);
    return `${field}: ${pairs.join(', ')}`;
  }
  const parts = [valueText(sides.get('old')), valueText(sides.get('new'))].filter(Boolean);
  return `${field}: ${parts.join(' → ')}`;
};

const changesText = (entry: AuditEntry): string =>
  Object.entries(entry.changes)
    .map(([field, change]) => changeText(field, change))
    .filter((text) => text !== null)
    .join('; ');

// The log's records, newest first: when, who, what, on which row, and from where.
export const AuditTable = ({ entries, label }: { entries: AuditEntry[]; label: string }) => (
  <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          <TableCell>When</TableCell>
          <TableCell>Who</TableCell>
          <TableCell>Action</TableCell>
          <TableCell>Resource</TableCell>
          <TableCell>Changes</TableCell>
          <TableCell>From</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {new Date(entry.occurredAt).toLocaleString()}
            </TableCell>
            <TableCell>{actorText(entry)}</TableCell>
            <TableCell title={entry.action}>{auditActionLabel(entry.action)}</TableCell>
            <TableCell>
              {entry.resource}
              {entry.resourceId === null ? '' : ` #${entry.resourceId}`}
            </TableCell>
            <TableCell sx={{ maxWidth: 420, wordBreak: 'break-word' }}>
              <Typography variant="body2">{changesText(entry)}</Typography>
            </TableCell>
            <TableCell>
              <Typography variant="body2" title={entry.userAgent ?? ''}>
                {entry.address ?? ''}
              </Typography>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  </Paper>
);
