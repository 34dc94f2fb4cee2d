import { errorText } from '@flotilla/sdk/errors';
import { textLengthProblem } from '@flotilla/shared/constants/text-length';
import { adminUserPageSize, adminUserSearchMaxLength } from '@flotilla/shared/users/admin-users';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { AdminHeader } from './AdminHeader.js';
import { useAdminUsers, useLoginAs } from './api.js';

// /admin: every user, searched and paged by the server, each with a
// "Log in as" that opens the console as that user (the way back is the shell's banner).
const Users = () => {
  usePageTitle('Admin');
  const session = useSession();
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const searchProblem = textLengthProblem('The search', draft.trim(), adminUserSearchMaxLength);
  const [page, setPage] = useState(0);
  const users = useAdminUsers(search, page);
  const impersonate = useLoginAs();
  return (
    <Box>
      <AdminHeader />
      <Box
        component="form"
        role="search"
        sx={{ mb: 2, display: 'flex', gap: 1 }}
        onSubmit={(event) => {
          event.preventDefault();
          if (searchProblem !== undefined) return;
          setSearch(draft.trim());
          setPage(0);
        }}
      >
        <TextField
          size="small"
          label="Search users"
          placeholder="Username or e-mail"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          error={searchProblem !== undefined}
          helperText={searchProblem}
        />
        <Button type="submit" variant="contained">
          Search
        </Button>
      </Box>
      {users.isPending ? (
        <Skeleton variant="rounded" height={200} aria-label="Loading" />
      ) : users.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void users.refetch()}>
              Retry
            </Button>
          }
        >
          {errorText(users.error) ?? 'Could not load the users'}
        </Alert>
      ) : users.data.users.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>
            {search === '' ? 'No users yet.' : `No user matches "${search}".`}
          </Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table aria-label="Users">
            <TableHead>
              <TableRow>
                <TableCell>Username</TableCell>
                <TableCell>E-mail</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Platform role</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {users.data.users.map((user) => (
                <TableRow key={user.id}>
                  <TableCell>{user.username}</TableCell>
                  <TableCell>{user.email ?? '—'}</TableCell>
                  <TableCell>{new Date(user.createdAt).toLocaleDateString()}</TableCell>
                  <TableCell>
                    {user.platformRoles.map((role) => (
                      <Chip key={role} size="small" label={role} sx={{ mr: 0.5 }} />
                    ))}
                  </TableCell>
                  <TableCell align="right">
                    {user.id === session?.userId ? null : (
                      <Button
                        size="small"
                        disabled={impersonate.isPending}
                        onClick={() => impersonate.mutate(user.username)}
                        aria-label={`Log in as ${user.username}`}
                      >
                        Log in as
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={users.data.total}
            page={page}
            rowsPerPage={adminUserPageSize}
            rowsPerPageOptions={[adminUserPageSize]}
            onPageChange={(_event, next) => setPage(next)}
          />
        </Paper>
      )}
    </Box>
  );
};

export const AdminPage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isAdmin(session)} loading={false}>
      <Users />
    </RequirePermission>
  );
};
