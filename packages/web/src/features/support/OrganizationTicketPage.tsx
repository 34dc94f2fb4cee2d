import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useReplyToTicket, useTicket } from './api.js';
import { ReplyForm } from './ReplyForm.js';
import { StatusChip, TicketThread } from './TicketThread.js';

// /orgs/:organizationId/support/:ticketId: one ticket's thread as the organization sees it, and
// its reply box (a closed ticket takes no more replies).
export const OrganizationTicketPage = () => {
  const params = useParams();
  const organizationId = Number(params.organizationId);
  const ticketId = Number(params.ticketId);
  const valid = Number.isInteger(ticketId) && ticketId > 0;
  usePageTitle(`Ticket #${valid ? ticketId : ''}`);
  if (!valid) {
    return (
      <RedirectWithMessage
        to={`/orgs/${organizationId}/support`}
        message="invalid id passed in url"
      />
    );
  }
  return <TicketView organizationId={organizationId} ticketId={ticketId} />;
};

const TicketView = ({ organizationId, ticketId }: { organizationId: number; ticketId: number }) => {
  const ticket = useTicket(ticketId);
  const reply = useReplyToTicket(ticketId, organizationId);
  return (
    <Stack spacing={2}>
      <Link component={RouterLink} to={`/orgs/${organizationId}/support`}>
        ← Support tickets
      </Link>
      <LoadState queries={[ticket]} what="ticket" />
      {ticket.data ? (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="h2">
              #{ticket.data.id} {ticket.data.subject}
            </Typography>
            <StatusChip status={ticket.data.status} />
          </Stack>
          {ticket.data.cc.length > 0 ? (
            <Typography variant="body2" color="text.secondary">
              CC: {ticket.data.cc.join(', ')}
            </Typography>
          ) : null}
          <TicketThread ticket={ticket.data} />
          {ticket.data.status === 'closed' ? (
            <Typography color="text.secondary">This ticket is closed.</Typography>
          ) : (
            <ReplyForm
              label="Your reply"
              pending={reply.isPending}
              error={reply.error}
              onSend={(draft, done) => reply.mutate(draft, { onSuccess: done })}
            />
          )}
        </>
      ) : null}
    </Stack>
  );
};
