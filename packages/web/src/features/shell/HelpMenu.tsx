import HelpOutlineOutlinedIcon from '@mui/icons-material/HelpOutlineOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import MenuList from '@mui/material/MenuList';
import Tooltip from '@mui/material/Tooltip';
import Skeleton from '@mui/material/Skeleton';
import { lazy, Suspense, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useConnectivity, usePublicConfig } from './api.js';
import { KnownIssues } from '../status/KnownIssues.js';
import { ChatEntry } from './ChatEntry.js';

// The drawer's support part (its form and search) loads when the drawer first opens, keeping it
// out of the initial bundle.
const SupportPanel = lazy(async () => ({
  default: (await import('../support/SupportPanel.js')).SupportPanel,
}));

// The support drawer's width.
const drawerWidth = 310;

// The header's help links, in this order; the keys of `helpLinks` in
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

// The support drawer: private support and the documentation search (features/support), the help
// links and the API status: a dot on the help icon, green while the SDK reaches the API, amber
// once its connectivity check declares the connection lost.
export const HelpMenu = () => {
  const [open, setOpen] = useState(false);
  const { lost, retryNow } = useConnectivity();
  const config = usePublicConfig();
  const links = helpLinksOf(config.data);
  const status = statusText(lost);
  const close = (): void => setOpen(false);
  return (
    <>
      <Tooltip title={`Help · ${status}`}>
        <IconButton
          color="inherit"
          aria-label={`Help and status: ${status}`}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => setOpen(true)}
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
      <Drawer
        anchor="right"
        open={open}
        onClose={close}
        slotProps={{ paper: { sx: { width: drawerWidth }, 'aria-label': 'Help and support' } }}
      >
        {open ? <KnownIssues /> : null}
        {open ? (
          <Suspense
            fallback={
              <Skeleton variant="rounded" height={120} sx={{ m: 2 }} aria-label="Loading" />
            }
          >
            <SupportPanel onNavigate={close} />
          </Suspense>
        ) : null}
        <Divider />
        <MenuList aria-label="Help links">
          <ChatEntry onOpen={close} />
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
              if (lost) retryNow();
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
        </MenuList>
      </Drawer>
    </>
  );
};
