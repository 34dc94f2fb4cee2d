import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useLocation } from 'react-router';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';

export type Section = 'members' | 'teams' | ApplicationClass;

const classOfSection: Record<string, ApplicationClass> = {
  fleets: 'fleet',
  apps: 'app',
  blocks: 'block',
};

// The section a member or team page shows, from the last segment of its path.
export const useSection = (base: string, first: 'members' | 'teams'): Section => {
  const { pathname } = useLocation();
  const rest = pathname.slice(base.length).split('/')[1] ?? '';
  return classOfSection[rest] ?? first;
};

// Tabs of a member page (teams, fleets, apps, blocks) or a team page (members, fleets...); the
// apps tab only when apps are shown.
export const SectionTabs = ({
  base,
  first,
  value,
}: {
  base: string;
  first: 'members' | 'teams';
  value: Section;
}) => {
  const appsEnabled = useAppsEnabled();
  return (
    <Tabs
      value={value}
      aria-label="Sections"
      sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
    >
      <Tab
        label={first === 'members' ? 'Members' : 'Teams'}
        value={first}
        component={RouterLink}
        to={`${base}/${first}`}
      />
      <Tab label="Fleets" value="fleet" component={RouterLink} to={`${base}/fleets`} />
      {appsEnabled ? (
        <Tab label="Apps" value="app" component={RouterLink} to={`${base}/apps`} />
      ) : null}
      <Tab label="Blocks" value="block" component={RouterLink} to={`${base}/blocks`} />
    </Tabs>
  );
};
