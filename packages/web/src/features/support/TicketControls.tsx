import {
  statusLabels,
  ticketPriorities,
  type TicketStatus,
  ticketStatuses,
} from '@flotilla/shared/support/support-tickets';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { TicketChange } from './api-queue.js';

export const statusOf = (value: string): TicketStatus | undefined =>
  ticketStatuses.find((entry) => entry === value);

// An agent's controls of a ticket: who works it, its priority and its status; each change is
// sent at once.
export const TicketControls = ({
  assignee,
  priority,
  status,
  agents,
  onChange,
}: {
  assignee: number | null;
  priority: string;
  status: TicketStatus;
  agents: readonly { id: number; username: string }[];
  onChange: (change: TicketChange) => void;
}) => (
  <Stack direction="row" spacing={2}>
    <TextField
      select
      size="small"
      label="Assignee"
      sx={{ minWidth: 180 }}
      value={assignee === null ? 'none' : String(assignee)}
      onChange={(event) =>
        onChange({
          assignee: event.target.value === 'none' ? null : Number(event.target.value),
        })
      }
    >
      <MenuItem value="none">Unassigned</MenuItem>
      {agents.map((agent) => (
        <MenuItem key={agent.id} value={String(agent.id)}>
          {agent.username}
        </MenuItem>
      ))}
    </TextField>
    <TextField
      select
      size="small"
      label="Priority"
      sx={{ minWidth: 140 }}
      value={priority}
      onChange={(event) => {
        const priority = ticketPriorities.find((entry) => entry === event.target.value);
        if (priority) onChange({ priority });
      }}
    >
      {ticketPriorities.map((entry) => (
        <MenuItem key={entry} value={entry}>
          {entry}
        </MenuItem>
      ))}
    </TextField>
    <TextField
      select
      size="small"
      label="Status"
      sx={{ minWidth: 180 }}
      value={status}
      onChange={(event) => {
        const status = statusOf(event.target.value);
        if (status) onChange({ status });
      }}
    >
      {ticketStatuses.map((entry) => (
        <MenuItem key={entry} value={entry}>
          {statusLabels[entry]}
        </MenuItem>
      ))}
    </TextField>
  </Stack>
);
