import { statusLabels, ticketStatuses } from '@flotilla/shared/support/support-tickets';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { useDebounced } from '../../ui/useDebounced.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { type QueueFilter, useSupportAgents, useTicketQueue } from './api-queue.js';
import { isSupportStaff } from '../../api/session/support-staff.js';
import { QueueTable } from './QueueTable.js';

const assigneeValue = (value: string): QueueFilter['assignee'] =>
  value === 'anyone' || value === 'none' ? value : Number(value);

// /admin/support: the support agents' queue, every organization's tickets, filtered by status,
// assignee and a search over subject, requester and organization.
const Queue = () => {
  usePageTitle('Support queue');
  const [status, setStatus] = useState<QueueFilter['status']>('any');
  const [assignee, setAssignee] = useState<QueueFilter['assignee']>('anyone');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const debounced = useDebounced(search, 300);
  const queue = useTicketQueue({ status, assignee, search: debounced, page });
  const agents = useSupportAgents();
  const session = useSession();
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Typography variant="h1">Support queue</Typography>
        {isAdmin(session) ? (
          <Button component={RouterLink} to="/admin/support-fields">
            Ticket fields
          </Button>
        ) : null}
      </Stack>
      <Stack direction="row" spacing={2}>
        <TextField
          select
          size="small"
          label="Status"
          value={status}
          sx={{ minWidth: 160 }}
          onChange={(event) => {
            const next = ticketStatuses.find((entry) => entry === event.target.value);
            setStatus(next ?? 'any');
            setPage(0);
          }}
        >
          <MenuItem value="any">Any status</MenuItem>
          {ticketStatuses.map((entry) => (
            <MenuItem key={entry} value={entry}>
              {statusLabels[entry]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Assignee"
          value={String(assignee)}
          sx={{ minWidth: 160 }}
          onChange={(event) => {
            setAssignee(assigneeValue(event.target.value));
            setPage(0);
          }}
        >
          <MenuItem value="anyone">Anyone</MenuItem>
          <MenuItem value="none">Unassigned</MenuItem>
          {(agents.data ?? []).map((agent) => (
            <MenuItem key={agent.id} value={String(agent.id)}>
              {agent.username}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(0);
          }}
        />
      </Stack>
      <LoadState queries={[queue]} what="support queue" />
      {queue.data === undefined ? null : queue.data.tickets.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No tickets match.</Typography>
        </Paper>
      ) : (
        <QueueTable page={queue.data} pageIndex={page} onPage={setPage} />
      )}
    </Stack>
  );
};

export const SupportQueuePage = () => {
  const session = useSession();
  return (
    <RequirePermission allowed={isSupportStaff(session)} loading={false}>
      <Queue />
    </RequirePermission>
  );
};
