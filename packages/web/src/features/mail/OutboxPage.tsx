import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { outboxPageSize, useOutbox } from './api.js';

// /admin/outbox: the mail the server sent or kept (platform administrators). Without SMTP this
// is where invitation links are read, so a fresh install can complete every flow.
const Outbox = () => {
  usePageTitle('Outbox');
  const [page, setPage] = useState(0);
  const outbox = useOutbox(page);
  return (
    <Box>
      <Typography variant="h1" sx={{ mb: 1 }}>
        Outbox
      </Typography>
      {outbox.data?.transport === 'outbox' ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          No SMTP server is configured (FLOTILLA_SMTP_URL): messages stay here and are not sent.
        </Alert>
      ) : outbox.data?.transport === 'smtp' ? (
        // Their links are secrets (reset, verification, invitation): the server keeps none once sent.
        <Alert severity="info" sx={{ mb: 2 }}>
          Messages are sent through SMTP; once sent, they are kept here without their links.
        </Alert>
      ) : null}
      {outbox.isPending ? (
        <Skeleton variant="rounded" height={200} aria-label="Loading" />
      ) : outbox.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void outbox.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(outbox.error) ?? 'Could not load the outbox'}
        </Alert>
      ) : outbox.data.messages.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No mail yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Mail">
            <TableHead>
              <TableRow>
                <TableCell>Created</TableCell>
                <TableCell>To</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>Links</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {outbox.data.messages.map((message) => (
                <TableRow key={message.id}>
                  <TableCell>{new Date(message.createdAt).toLocaleString()}</TableCell>
                  <TableCell>{message.to}</TableCell>
                  <TableCell>{message.subject}</TableCell>
                  <TableCell>
                    <Stack>
                      {message.links.map((href) => (
                        <Link key={href} href={href} sx={{ wordBreak: 'break-all' }}>
                          {href}
                        </Link>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell title={message.lastError ?? undefined}>{message.status}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={outbox.data.total}
            page={page}
            rowsPerPage={outboxPageSize}
            rowsPerPageOptions={[outboxPageSize]}
            onPageChange={(_event, next) => setPage(next)}
          />
        </Paper>
      )}
    </Box>
  );
};

export const OutboxPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Outbox />
    </RequirePermission>
  );
};
