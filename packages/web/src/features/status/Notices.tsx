import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { useDeleteNotice, useResolveNotice, useStatusNotices } from './api.js';

// Admin → Status: the notices, open first, each resolved, reopened or deleted here.
export const Notices = () => {
  const notices = useStatusNotices();
  const resolve = useResolveNotice();
  const remove = useDeleteNotice();
  return (
    <Box>
      <LoadState queries={[notices]} what="notices" />
      <MutationError error={resolve.error ?? remove.error} fallback="Could not change the notice" />
      {notices.data?.notices.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No notices yet.</Typography>
        </Paper>
      ) : notices.data ? (
        <Paper variant="outlined">
          <Table aria-label="Notices" size="small">
            <TableHead>
              <TableRow>
                <TableCell>Title</TableCell>
                <TableCell>Kind</TableCell>
                <TableCell>Posted</TableCell>
                <TableCell>State</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {notices.data.notices.map((notice) => (
                <TableRow key={notice.id}>
                  <TableCell>{notice.title}</TableCell>
                  <TableCell>
                    {notice.kind} ({notice.severity})
                  </TableCell>
                  <TableCell>{new Date(notice.createdAt).toLocaleString()}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={notice.resolvedAt === null ? 'Open' : 'Resolved'}
                      color={notice.resolvedAt === null ? 'warning' : 'default'}
                    />
                  </TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      disabled={resolve.isPending}
                      onClick={() =>
                        resolve.mutate({ id: notice.id, resolved: notice.resolvedAt === null })
                      }
                    >
                      {notice.resolvedAt === null ? 'Resolve' : 'Reopen'}
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(notice.id)}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </Box>
  );
};
