import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import {
  type AuditQuery,
  type AuditSource,
  exportable,
  useAuditEntries,
  useAuditExport,
} from './api.js';
import { AuditTable } from './AuditTable.js';

// The records matching `filter`, with "Load more" and, for an organization or the whole
// installation, the two exports.
export const AuditLogView = ({
  source,
  filter,
  label,
}: {
  source: AuditSource;
  filter: AuditQuery;
  label: string;
}) => {
  const entries = useAuditEntries(source, filter);
  const exporter = useAuditExport(source);
  const rows = entries.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={exportable(source) ? {} : { display: 'none' }}>
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
          <Typography>
            {Object.values(filter).some((value) => value !== undefined)
              ? 'No records match these filters.'
              : 'Nothing recorded yet.'}
          </Typography>
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
