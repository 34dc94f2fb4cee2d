import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import {
  ticketPageSize,
  useCanAccessSupport,
  useOrganizationTickets,
  useSupportOrganizations,
} from './api.js';
import { CreateTicketDialog } from './CreateTicketDialog.js';
import { StatusChip } from './TicketThread.js';

// /orgs/:organizationId/support: the organization's support tickets, newest activity first.
export const SupportTicketsPage = () => {
  usePageTitle('Support tickets');
  const organizationId = Number(useParams().organizationId);
  const [page, setPage] = useState(0);
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const tickets = useOrganizationTickets(organizationId, page);
  const access = useCanAccessSupport(organizationId);
  const organizations = useSupportOrganizations(creating);
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h2">Support tickets</Typography>
        {access.data === true ? (
          <Button variant="contained" onClick={() => setCreating(true)}>
            New ticket
          </Button>
        ) : null}
      </Stack>
      <LoadState queries={[tickets]} what="support tickets" />
      {tickets.data === undefined ? null : tickets.data.tickets.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
          <Typography>No support tickets yet.</Typography>
        </Paper>
      ) : (
        <Paper variant="outlined">
          <Table size="small" aria-label="Support tickets">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>Subject</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Requester</TableCell>
                <TableCell>Updated</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {tickets.data.tickets.map((ticket) => (
                <TableRow key={ticket.id}>
                  <TableCell>{ticket.id}</TableCell>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={`/orgs/${organizationId}/support/${ticket.id}`}
                    >
                      {ticket.subject}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <StatusChip status={ticket.status} />
                  </TableCell>
                  <TableCell>{ticket.requester}</TableCell>
                  <TableCell>{new Date(ticket.updatedAt).toLocaleString()}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={tickets.data.total}
            page={page}
            rowsPerPage={ticketPageSize}
            rowsPerPageOptions={[ticketPageSize]}
            onPageChange={(_event, next) => setPage(next)}
          />
        </Paper>
      )}
      {creating && organizations.data ? (
        <CreateTicketDialog
          organizations={organizations.data}
          initialOrganization={organizationId}
          onClose={() => setCreating(false)}
          onSubmitted={(organization, ticketId) => {
            setCreating(false);
            void navigate(`/orgs/${organization}/support/${ticketId}`);
          }}
        />
      ) : null}
    </Stack>
  );
};
