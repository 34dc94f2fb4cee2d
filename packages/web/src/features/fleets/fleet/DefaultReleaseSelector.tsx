import { Stack } from '@mui/material';
import { type ReleaseChoice, ReleasePicker, trackChoice } from '../../releases/ReleasePicker.js';
import { type FleetDetail, releaseLabel } from '../../../fleet/api-fleet-detail.js';
import { DisabledReason } from '../../../ui/DisabledReason.js';
import { useUpdateFleet } from './api-fleet.js';
import { MutationError } from '../../../ui/MutationError.js';

// Track the latest release or pin the fleet to one successful final release (the release
// picker: searched on the server, paged, invalidated releases disabled).
export const DefaultReleaseSelector = ({
  fleet,
  denied,
  label = 'Default release',
}: {
  fleet: FleetDetail;
  // Why the user may not change it, or null.
  denied: string | null;
  label?: string;
}) => {
  const update = useUpdateFleet(fleet.id);
  const current = fleet.should_be_running__release[0];
  const tracking = fleet.should_track_latest_release;
  const detail = current && tracking ? releaseLabel(current) : '';
  const value: ReleaseChoice = tracking || !current ? trackChoice : current.id;
  const choose = (choice: ReleaseChoice | null): void => {
    if (choice === null || choice === value) return;
    update.mutate(
      choice === trackChoice
        ? { should_track_latest_release: true }
        : { should_be_running__release: choice, should_track_latest_release: false },
    );
  };
  return (
    <Stack spacing={1}>
      <DisabledReason reason={denied}>
        <ReleasePicker
          fleetId={fleet.id}
          label={label}
          track={{
            label: 'Track latest release',
            detail,
            inputLabel: detail ? `Track latest release (${detail})` : 'Track latest release',
          }}
          value={value}
          known={current ?? null}
          onChange={choose}
          disabled={denied !== null || update.isPending}
          disableClearable
        />
      </DisabledReason>
      <MutationError
        error={update.isError ? update.error : null}
        fallback={'Could not change the release'}
      />
    </Stack>
  );
};
