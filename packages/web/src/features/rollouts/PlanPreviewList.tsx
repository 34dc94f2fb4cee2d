import { describeWave, type WaveSpec } from '@flotilla/shared/rollouts/rollout-types';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';

// The expected device count of each planned wave.
export const PlanPreviewList = ({ waves, counts }: { waves: WaveSpec[]; counts: number[] }) => (
  <List dense aria-label="Expected devices per wave">
    {waves.map((wave, index) => (
      <ListItem key={index} disableGutters>
        <ListItemText
          primary={`Wave ${index + 1}: ${describeWave(wave)}`}
          secondary={`${counts[index] ?? 0} device${counts[index] === 1 ? '' : 's'}`}
        />
      </ListItem>
    ))}
  </List>
);
