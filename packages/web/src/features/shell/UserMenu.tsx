import { usernameDisplay } from '@flotilla/shared/constants/limits';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useClient } from '../../api/client.js';
import { forgetAdminReturn } from '../platform-admin/admin-session.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';
import { sessionKeys } from '../../api/session/query-keys.js';

// Over 20 characters: the first 17 and an ellipsis (seed 000 section 9).
export const displayUsername = (username: string): string =>
  username.length > usernameDisplay.over
    ? `${username.slice(0, usernameDisplay.truncateTo)}…`
    : username;

export const UserMenu = () => {
  const client = useClient();
  const session = useSession();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [copied, setCopied] = useState(false);
  const whoami = useQuery({
    queryKey: sessionKeys.whoami(session?.userId),
    queryFn: () => client.auth.whoami(),
  });
  const username = whoami.data && 'username' in whoami.data ? (whoami.data.username ?? '') : '';
  const copy = async (): Promise<void> => {
    await navigator.clipboard?.writeText(username).catch(() => undefined);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return (
    <>
      <IconButton
        aria-label="Account menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        color="inherit"
      >
        <Avatar sx={{ width: 32, height: 32, bgcolor: 'secondary.main', fontSize: 16 }}>
          {username.slice(0, 1).toUpperCase() || '?'}
        </Avatar>
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => void copy()}
          title={username}
          aria-label={`Username ${username}, copy`}
        >
          <ListItemText
            primary={displayUsername(username)}
            secondary={copied ? 'Copied to the clipboard' : 'Username (click to copy)'}
          />
        </MenuItem>
        <MenuItem component={RouterLink} to="/preferences" onClick={() => setAnchor(null)}>
          Preferences
        </MenuItem>
        {/* Only platform administrators (admin.home) have the admin area (seed 000 section 2.3). */}
        {isAdmin(session) ? (
          <MenuItem component={RouterLink} to="/admin" onClick={() => setAnchor(null)}>
            Admin
          </MenuItem>
        ) : null}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            forgetAdminReturn();
            client.auth.logout();
            void navigate('/login');
          }}
        >
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
};
