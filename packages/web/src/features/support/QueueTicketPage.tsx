import {
  statusLabels,
  type TicketStatus,
  ticketStatuses,
} from '@flotilla/shared/support/support-tickets';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { RequirePermission } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { LoadState } from '../../ui/LoadState.js';
import { MutationError } from '../../ui/MutationError.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useTicket } from './api.js';
import { useAgentReply, useChangeTicket, useSupportAgents } from './api-queue.js';
import { statusOf, TicketControls } from './TicketControls.js';
import { ReplyForm } from './ReplyForm.js';
import { isSupportStaff } from '../../api/session/support-staff.js';
import { TicketThread } from './TicketThread.js';
import { useToasts } from '../../ui/toasts.js';

// /admin/support/:ticketId: an agent's view of a ticket: assignee, priority and status, the
// thread, and the reply (mailed to the requester and the cc list).
const QueueTicket = ({ ticketId }: { ticketId: number }) => {
  usePageTitle(`Ticket #${ticketId}`);
  const ticket = useTicket(ticketId);
  const agents = useSupportAgents();
  const change = useChangeTicket(ticketId);
  const reply = useAgentReply(ticketId, ticket.data?.organization.id);
  const toasts = useToasts();
  const [statusAfter, setStatusAfter] = useState<TicketStatus>('pending');
  return (
    <Stack spacing={2}>
      <Link component={RouterLink} to="/admin/support">
        ← Support queue
      </Link>
      <LoadState queries={[ticket]} what="ticket" />
      {ticket.data ? (
        <>
          <Typography variant="h1">
            #{ticket.data.id} {ticket.data.subject}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {ticket.data.organization.name} · {ticket.data.requester}
            {ticket.data.cc.length > 0 ? ` · CC ${ticket.data.cc.join(', ')}` : ''}
          </Typography>
          {ticket.data.customFields.map((field) => (
            <Typography key={field.id} variant="body2">
              {field.title}: {String(field.value)}
            </Typography>
          ))}
          <TicketControls
            assignee={ticket.data.assignee?.id ?? null}
            priority={ticket.data.priority}
            status={ticket.data.status}
            agents={agents.data ?? []}
            onChange={(next) => change.mutate(next)}
          />
          <MutationError error={change.error} fallback="The ticket was not changed" />
          <TicketThread ticket={ticket.data} />
          <ReplyForm
            label="Reply to the requester"
            pending={reply.isPending}
            error={reply.error}
            extra={
              <TextField
                select
                size="small"
                label="Then"
                sx={{ minWidth: 200 }}
                value={statusAfter}
                onChange={(event) => setStatusAfter(statusOf(event.target.value) ?? 'pending')}
              >
                {ticketStatuses.map((entry) => (
                  <MenuItem key={entry} value={entry}>
                    {statusLabels[entry]}
                  </MenuItem>
                ))}
              </TextField>
            }
            onSend={(draft, done) =>
              reply.mutate(
                { ...draft, status: statusAfter },
                {
                  onSuccess: (answer) => {
                    done();
                    toasts.show(
                      'success',
                      answer.mailed > 0
                        ? `Reply sent and mailed to ${answer.mailed}`
                        : 'Reply sent',
                    );
                  },
                },
              )
            }
          />
        </>
      ) : null}
    </Stack>
  );
};

export const QueueTicketPage = () => {
  const session = useSession();
  const ticketId = Number(useParams().ticketId);
  if (!Number.isInteger(ticketId) || ticketId <= 0) {
    return <RedirectWithMessage to="/admin/support" message="invalid id passed in url" />;
  }
  return (
    <RequirePermission allowed={isSupportStaff(session)} loading={false}>
      <QueueTicket ticketId={ticketId} />
    </RequirePermission>
  );
};
