import { roleLabel } from '@flotilla/shared/permissions/role-labels';
import { applicationMembershipRoles } from '@flotilla/shared/permissions/roles';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { DisabledReason } from '../../ui/DisabledReason.js';

// The cells a fleet's members and teams tables share: the fleet role select and the remove
// button, each disabled with the reason (null when allowed) when the user may not.
export const FleetRoleSelect = ({
  who,
  role,
  denied,
  busy,
  onChange,
}: {
  who: string;
  role: string;
  denied: string | null;
  busy: boolean;
  onChange: (role: string) => void;
}) => (
  <DisabledReason reason={denied}>
    <TextField
      select
      size="small"
      value={role}
      disabled={denied !== null || busy}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { 'aria-label': `Role of ${who}` } }}
    >
      {applicationMembershipRoles.map((option) => (
        <MenuItem key={option} value={option}>
          {roleLabel(option)}
        </MenuItem>
      ))}
    </TextField>
  </DisabledReason>
);

export const FleetAccessRemoveButton = ({
  denied,
  busy,
  onRemove,
}: {
  denied: string | null;
  busy: boolean;
  onRemove: () => void;
}) => (
  <DisabledReason reason={denied}>
    <Button size="small" color="error" disabled={denied !== null || busy} onClick={onRemove}>
      Remove
    </Button>
  </DisabledReason>
);
