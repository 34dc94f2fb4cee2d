import type { StatusNoticeKind, StatusNoticeSeverity } from '@flotilla/shared/status/status';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useDeleteNotice, usePostNotice, useResolveNotice, useStatusNotices } from './api.js';

const NoticeForm = () => {
  const post = usePostNotice();
  const [kind, setKind] = useState<StatusNoticeKind>('incident');
  const [severity, setSeverity] = useState<StatusNoticeSeverity>('minor');
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  return (
    <Paper
      variant="outlined"
      component="form"
      aria-label="Post a notice"
      sx={{ p: 2, mb: 3 }}
      onSubmit={(event) => {
        event.preventDefault();
        post.mutate(
          { kind, severity, title, message },
          {
            onSuccess: () => {
              setTitle('');
              setMessage('');
            },
          },
        );
      }}
    >
      <Typography variant="h2" sx={{ mb: 2 }}>
        Post a notice
      </Typography>
      <Stack spacing={2}>
        <Stack direction="row" spacing={2}>
          <TextField
            select
            size="small"
            label="Kind"
            value={kind}
            onChange={(event) =>
              setKind(event.target.value === 'maintenance' ? 'maintenance' : 'incident')
            }
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="incident">Incident</MenuItem>
            <MenuItem value="maintenance">Maintenance</MenuItem>
          </TextField>
          <TextField
            select
            size="small"
            label="Severity"
            value={severity}
            onChange={(event) => setSeverity(event.target.value === 'major' ? 'major' : 'minor')}
            sx={{ minWidth: 160 }}
          >
            <MenuItem value="minor">Minor</MenuItem>
            <MenuItem value="major">Major</MenuItem>
          </TextField>
        </Stack>
        <TextField
          size="small"
          label="Title"
          required
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          size="small"
          label="Message"
          multiline
          minRows={2}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 5000 } }}
        />
        <MutationError error={post.error} fallback="Could not post the notice" />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={post.isPending || title.trim() === ''}
          >
            Post
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
};

const Notices = () => {
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

// /admin/status: incidents and maintenance notices of the status page (platform administrators).
export const StatusAdminPage = () => {
  const session = useSession();
  usePageTitle('Status notices');
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h1">Status notices</Typography>
        <Button component={RouterLink} to="/status" variant="outlined">
          Open the status page
        </Button>
      </Stack>
      <NoticeForm />
      <Notices />
    </RequirePermission>
  );
};
