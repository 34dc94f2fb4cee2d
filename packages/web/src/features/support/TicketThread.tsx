import { statusLabels, type TicketDetail } from '@flotilla/shared/support/support-tickets';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

const when = (iso: string): string => new Date(iso).toLocaleString();

export const StatusChip = ({ status }: { status: TicketDetail['status'] }) => (
  <Chip
    size="small"
    label={statusLabels[status]}
    color={
      status === 'pending'
        ? 'warning'
        : status === 'solved' || status === 'closed'
          ? 'success'
          : 'info'
    }
  />
);

// A ticket's messages, oldest first; support's answers are marked as such.
export const TicketThread = ({ ticket }: { ticket: TicketDetail }) => (
  <Stack spacing={2} aria-label="Messages" component="section">
    {ticket.messages.map((message) => (
      <Paper
        key={message.id}
        variant="outlined"
        sx={{
          p: 2,
          borderLeft: 4,
          borderLeftColor: message.fromAgent ? 'primary.main' : 'divider',
        }}
        aria-label={
          message.fromAgent
            ? `Reply from support (${message.author})`
            : `Message from ${message.author}`
        }
      >
        <Typography variant="subtitle2">
          {message.author}
          {message.fromAgent ? ' · Support' : ''}
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {when(message.createdAt)}
          </Typography>
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap', mt: 1 }}>{message.body}</Typography>
        {message.attachments.length === 0 ? null : (
          <Stack direction="row" sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
            {message.attachments.map((file) => (
              <Link
                key={file.id}
                href={file.content_url}
                download={file.file_name}
                sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}
              >
                <AttachFileIcon fontSize="small" />
                {file.file_name}
              </Link>
            ))}
          </Stack>
        )}
      </Paper>
    ))}
  </Stack>
);
