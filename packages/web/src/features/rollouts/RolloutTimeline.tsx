import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import { absoluteTime } from '../../device/device-format.js';
import type { RolloutEvent } from './api.js';

// The rollout's decisions, newest first, with who took them (none: the scheduler).
export const RolloutTimeline = ({ events }: { events: RolloutEvent[] }) => (
  <List dense aria-label="Timeline">
    {events.map((event) => (
      <ListItem key={event.id} disableGutters>
        <ListItemText
          primary={event.message}
          secondary={`${absoluteTime(event.at)}${event.by ? ` · ${event.by}` : ''}`}
        />
      </ListItem>
    ))}
  </List>
);
