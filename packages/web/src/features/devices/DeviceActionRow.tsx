import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { SettingRow } from '../../ui/SettingRow.js';
import { actionSpecs, type MenuActionId } from './device-actions.js';
import type { DeviceActionFlow } from './useDeviceActionFlow.js';

// One device action as a row of the actions or settings page: what it is, its button, and, when
// it cannot run, why (visible: a disabled button shows no tooltip to touch users).
export const DeviceActionRow = ({
  id,
  flow,
  busy,
  title = actionSpecs[id].title,
  description,
  buttonLabel = actionSpecs[id].label,
}: {
  id: MenuActionId;
  flow: DeviceActionFlow;
  busy: boolean;
  title?: string;
  description: ReactNode;
  buttonLabel?: string;
}) => {
  const reasonId = useId();
  const block = flow.blockOf(id);
  return (
    <SettingRow title={title} description={description}>
      <Button
        variant="outlined"
        color={actionSpecs[id].destructive ? 'error' : 'primary'}
        disabled={block !== null || busy}
        aria-describedby={block === null ? undefined : reasonId}
        onClick={() => flow.select(id)}
      >
        {buttonLabel}
      </Button>
      {block === null ? null : (
        <Typography id={reasonId} variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {block}
        </Typography>
      )}
    </SettingRow>
  );
};
