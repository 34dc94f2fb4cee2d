import HelpOutlineOutlinedIcon from '@mui/icons-material/HelpOutlineOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useClient } from '../../api/client.js';
import { useStore } from './useExternalStore.js';
import { configKeys } from '../../api/config/query-keys.js';

// Seed 000 section 2.3: the header's help links, in this order; the keys of `helpLinks` in
// GET /config (the server's FLOTILLA_LINK_* settings).
const helpEntries = [
  { key: 'gettingStarted', label: 'Getting started' },
  { key: 'docs', label: 'Documentation' },
  { key: 'featureRequests', label: 'Feature requests' },
  { key: 'forums', label: 'Forums' },
  { key: 'help', label: 'Help' },
] as const;

// `inApp`: a path of the console itself, followed inside the app; otherwise an external http(s)
// URL, opened in a new tab.
export type HelpLink = { label: string; href: string; inApp: boolean };

const isAppPath = (value: string): boolean => /^\/(?![/\\])/.test(value);
const isExternalUrl = (value: string): boolean => /^https?:\/\//i.test(value);

// The links an installation configures under `helpLinks` of GET /config; an entry without a
// usable URL (null when unset) is left out rather than pointing somewhere made up.
export const helpLinksOf = (config: unknown): HelpLink[] => {
  if (typeof config !== 'object' || config === null || !('helpLinks' in config)) return [];
  const links: unknown = config.helpLinks;
  if (typeof links !== 'object' || links === null) return [];
  const byKey = new Map<string, unknown>(Object.entries(links));
  return helpEntries.flatMap(({ key, label }): HelpLink[] => {
    const href = byKey.get(key);
    if (typeof href !== 'string') return [];
    if (isAppPath(href)) return [{ label, href, inApp: true }];
    return isExternalUrl(href) ? [{ label, href, inApp: false }] : [];
  });
};

export const statusText = (lost: boolean): string =>
  lost ? 'Connection problems' : 'All systems operational';

// Help links and the API status: a dot on the help icon, green while the SDK reaches the API,
// amber once its connectivity check declares the connection lost.
export const HelpMenu = () => {
  const client = useClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const lost = useStore(
    (listener) => client.connectivity.subscribe(() => listener()),
    () => client.connectivity.getState().lost,
  );
  const config = useQuery({
    queryKey: configKeys.public,
    queryFn: () => client.config(),
    staleTime: Infinity,
  });
  const links = helpLinksOf(config.data);
  const status = statusText(lost);
  const close = (): void => setAnchor(null);
  return (
    <>
      <Tooltip title={`Help · ${status}`}>
        <IconButton
          color="inherit"
          aria-label={`Help and status: ${status}`}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge
            variant="dot"
            overlap="circular"
            color={lost ? 'warning' : 'success'}
            sx={{
              '& .MuiBadge-dot': {
                boxShadow: (theme) => `0 0 0 2px ${theme.palette.primary.main}`,
              },
            }}
          >
            <HelpOutlineOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {links.map((link) =>
          link.inApp ? (
            <MenuItem key={link.label} component={RouterLink} to={link.href} onClick={close}>
              {link.label}
            </MenuItem>
          ) : (
            <MenuItem
              key={link.label}
              component="a"
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              onClick={close}
            >
              {link.label}
            </MenuItem>
          ),
        )}
        {links.length > 0 ? <Divider /> : null}
        <MenuItem
          onClick={() => {
            if (lost) client.connectivity.retryNow();
            close();
          }}
        >
          <Box
            aria-hidden
            sx={{
              width: 10,
              height: 10,
              borderRadius: '50%',
              mr: 1.5,
              flexShrink: 0,
              bgcolor: lost ? 'warning.main' : 'success.main',
            }}
          />
          <ListItemText primary={status} secondary={lost ? 'Retry now' : 'API status'} />
        </MenuItem>
      </Menu>
    </>
  );
};
