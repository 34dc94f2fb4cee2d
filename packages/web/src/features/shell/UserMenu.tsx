import { usernameDisplay } from '@flotilla/shared/constants/limits';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useAvatarUrl, useLogout, useWhoami } from './api.js';
import { forgetAdminReturn } from '../platform-admin/admin-session.js';
import { isSupportStaff } from '../../api/session/support-staff.js';
import { isAdmin, useSession } from '../../api/session/useSession.js';

// Over 20 characters: the first 17 and an ellipsis, so a long name does not stretch the header.
export const displayUsername = (username: string): string =>
  username.length > usernameDisplay.over
    ? `${username.slice(0, usernameDisplay.truncateTo)}…`
    : username;

export const UserMenu = () => {
  const session = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [copied, setCopied] = useState(false);
  const whoami = useWhoami(session?.userId);
  const username = whoami.data && 'username' in whoami.data ? (whoami.data.username ?? '') : '';
  const email = whoami.data && 'email' in whoami.data ? whoami.data.email : null;
  const avatarUrl = useAvatarUrl(email);
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
        {/* The picture when the operator enabled an avatar service; the initial otherwise, and
            when the service has no picture for the address. */}
        <Avatar
          {...(avatarUrl === null ? {} : { src: avatarUrl, alt: username })}
          sx={{ width: 32, height: 32, bgcolor: 'secondary.main', fontSize: 16 }}
        >
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
        {/* Only platform administrators (admin.home) have the admin area. */}
        {isAdmin(session) ? (
          <MenuItem component={RouterLink} to="/admin" onClick={() => setAnchor(null)}>
            Admin
          </MenuItem>
        ) : null}
        {/* Support agents (and administrators) work the help desk's queue. */}
        {isSupportStaff(session) ? (
          <MenuItem component={RouterLink} to="/admin/support" onClick={() => setAnchor(null)}>
            Support queue
          </MenuItem>
        ) : null}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            forgetAdminReturn();
            logout();
            void navigate('/login');
          }}
        >
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
};
