import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useToasts } from '../../ui/toasts.js';
import { usePublicConfig } from './api.js';

// "Chat with us" in the support drawer, when the operator configured a chat widget (GET /config's
// chatWidget); without one the drawer's help desk is the way to message the operator. The widget
// loads only when asked for (chatwoot-widget.ts).
export const ChatEntry = ({ onOpen }: { onOpen: () => void }) => {
  const config = usePublicConfig();
  const toasts = useToasts();
  const [opening, setOpening] = useState(false);
  const widget = config.data?.chatWidget;
  if (!widget) return null;
  return (
    <MenuItem
      disabled={opening}
      onClick={() => {
        setOpening(true);
        void import('./chatwoot-widget.js')
          .then(({ openChatwoot }) => openChatwoot(widget))
          .then(onOpen, (error: unknown) =>
            toasts.show('error', error instanceof Error ? error.message : String(error)),
          )
          .finally(() => setOpening(false));
      }}
    >
      <ListItemText primary={opening ? 'Opening the chat…' : 'Chat with us'} />
    </MenuItem>
  );
};
