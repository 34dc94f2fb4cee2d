import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { type AuditQuery, useAuditEntries, useAuditExport } from './api.js';
import { AuditTable } from './AuditTable.js';

// The organization's records matching `filter`, with "Load more" and the two exports.
export const AuditLogView = ({
  organizationId,
  filter,
  label,
}: {
  organizationId: number;
  filter: AuditQuery;
  label: string;
}) => {
  const entries = useAuditEntries(organizationId, filter);
  const exporter = useAuditExport(organizationId);
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1}>
        {(['csv', 'ndjson'] as const).map((format) => (
          <Button
            key={format}
            variant="outlined"
            size="small"
            disabled={exporter.isPending}
            onClick={() => exporter.mutate({ filter, format })}
          >
            Export {format.toUpperCase()}
          </Button>
        ))}
      </Stack>
      <MutationError error={exporter.error} fallback="Could not export the audit log" />
      <LoadState queries={[entries]} what="audit log" />
      {entries.data === undefined ? null : rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No records match.</Typography>
        </Paper>
      ) : (
        <AuditTable entries={rows} label={label} />
      )}
      {entries.hasNextPage ? (
        <Button
          onClick={() => void entries.fetchNextPage()}
          disabled={entries.isFetchingNextPage}
          sx={{ alignSelf: 'center' }}
        >
          Load more
        </Button>
      ) : null}
    </Stack>
  );
};
