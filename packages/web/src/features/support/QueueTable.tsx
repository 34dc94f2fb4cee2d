import type { TicketPage } from '@flotilla/shared/support/support-tickets';
import { ticketQueuePageSize } from '@flotilla/shared/support/support-tickets';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { Link as RouterLink } from 'react-router';
import { StatusChip } from './TicketThread.js';

// One page of the support queue: each ticket links to its page in the Admin area.
export const QueueTable = ({
  page,
  pageIndex,
  onPage,
}: {
  page: TicketPage;
  pageIndex: number;
  onPage: (next: number) => void;
}) => (
  <Paper variant="outlined">
    <Table size="small" aria-label="Support queue">
      <TableHead>
        <TableRow>
          <TableCell>#</TableCell>
          <TableCell>Subject</TableCell>
          <TableCell>Organization</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Priority</TableCell>
          <TableCell>Assignee</TableCell>
          <TableCell>Updated</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {page.tickets.map((ticket) => (
          <TableRow key={ticket.id}>
            <TableCell>{ticket.id}</TableCell>
            <TableCell>
              <Link component={RouterLink} to={`/admin/support/${ticket.id}`}>
                {ticket.subject}
              </Link>
            </TableCell>
            <TableCell>{ticket.organization.name}</TableCell>
            <TableCell>
              <StatusChip status={ticket.status} />
            </TableCell>
            <TableCell>{ticket.priority}</TableCell>
            <TableCell>{ticket.assignee?.username ?? 'Unassigned'}</TableCell>
            <TableCell>{new Date(ticket.updatedAt).toLocaleString()}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
    <TablePagination
      component="div"
      count={page.total}
      page={pageIndex}
      rowsPerPage={ticketQueuePageSize}
      rowsPerPageOptions={[ticketQueuePageSize]}
      onPageChange={(_event, next) => onPage(next)}
    />
  </Paper>
);
