import type { AdminFeatureFlag, FeatureFlagScope } from '@flotilla/shared/feature-flags/flags';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { MutationError } from '../../ui/MutationError.js';
import { useSetFlag } from './api.js';

const scopeOf = (value: string): FeatureFlagScope =>
  value === 'organization' || value === 'user' ? value : 'global';

// Sets the flag for everyone, an organization (by handle) or a user (by username).
export const FlagSettingForm = ({ flag }: { flag: AdminFeatureFlag }) => {
  const set = useSetFlag();
  const [scope, setScope] = useState<FeatureFlagScope>('global');
  const [target, setTarget] = useState('');
  const [enabled, setEnabled] = useState(true);
  return (
    <Box
      component="form"
      aria-label={`Set ${flag.key}`}
      sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mt: 2 }}
      onSubmit={(event) => {
        event.preventDefault();
        set.mutate(
          { flag: flag.key, scope, target: target.trim(), enabled },
          { onSuccess: () => setTarget('') },
        );
      }}
    >
      <TextField
        select
        size="small"
        label="For"
        value={scope}
        onChange={(event) => setScope(scopeOf(event.target.value))}
        sx={{ minWidth: 160 }}
      >
        <MenuItem value="global">Everyone</MenuItem>
        <MenuItem value="organization">An organization</MenuItem>
        <MenuItem value="user">A user</MenuItem>
      </TextField>
      {scope === 'global' ? null : (
        <TextField
          size="small"
          required
          label={scope === 'organization' ? 'Organization handle' : 'Username'}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 255 } }}
        />
      )}
      <FormControlLabel
        control={
          <Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} />
        }
        label={enabled ? 'On' : 'Off'}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={set.isPending || (scope !== 'global' && target.trim() === '')}
      >
        Save
      </Button>
      <Box sx={{ flexBasis: '100%' }}>
        <MutationError error={set.error} fallback="Could not set the flag" />
      </Box>
    </Box>
  );
};
