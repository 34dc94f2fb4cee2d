import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { LoadState } from '../../ui/LoadState.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useRollout } from './api.js';
import { RolloutActions } from './RolloutActions.js';
import { RolloutDevices } from './RolloutDevices.js';
import { RolloutTimeline } from './RolloutTimeline.js';
import { RolloutWaves } from './RolloutWaves.js';

const Section = ({ title, children }: { title: string; children: ReactNode }) => (
  <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2 }}>
    <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
      {title}
    </Typography>
    {children}
  </Paper>
);

// /fleets/:fleetId/rollouts/:rolloutId: the rollout live (polled while in progress): its
// status, the decisions, the waves and their gates, every device's state and the timeline.
export const RolloutPage = () => {
  usePageTitle('Rollout');
  const rolloutId = Number(useParams().rolloutId);
  const query = useRollout(rolloutId);
  const rollout = query.data;
  if (!rollout) return <LoadState queries={[query]} what="rollout" />;
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" component="section" aria-label="Rollout" sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="h6" component="h2">
            Rollout {rollout.id}: release {rollout.from_release} → {rollout.target_release}
          </Typography>
          <Chip label={rollout.status} color={rollout.status === 'halted' ? 'error' : 'default'} />
        </Stack>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          Wave {rollout.current_wave} of {rollout.wave_count} · soak {rollout.gates.soakMinutes} min
          · failure budget {rollout.gates.failureBudgetPercent} %
        </Typography>
        {rollout.halt_reason ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            Halted: {rollout.halt_reason}
            {rollout.rolled_back ? ' The wave was rolled back to the previous release.' : ''}
          </Alert>
        ) : null}
        <RolloutActions rollout={rollout} />
      </Paper>
      <Section title="Waves">
        <RolloutWaves waves={rollout.waves} />
      </Section>
      <Section title="Devices">
        <RolloutDevices devices={rollout.devices} />
      </Section>
      <Section title="Timeline">
        <RolloutTimeline events={rollout.events} />
      </Section>
    </Stack>
  );
};
