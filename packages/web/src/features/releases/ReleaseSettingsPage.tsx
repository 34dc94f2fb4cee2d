import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import { usePatchRelease } from './api-release-edits.js';
import { ReleaseDangerZone } from './ReleaseDangerZone.js';
import { ReleaseVersionRow } from './ReleaseVersionRow.js';
import { useToasts } from '../../ui/toasts.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { MutationError } from '../../ui/MutationError.js';
import { SettingRow } from '../../ui/SettingRow.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { RequireFleetPermission } from '../../fleet/RequireFleetPermission.js';
import { releaseActions } from './release-rules.js';
import { useReleaseContext } from './ReleaseLayout.js';

// The release's settings (resin.release.update; anyone else goes home): version, validity,
// finalize, cancel a running build and delete, each enabled by the release's state and the
// user's permissions.
export const ReleaseSettingsPage = () => {
  const { fleet } = useReleaseContext();
  return (
    <RequireFleetPermission fleetId={fleet.id} needs={{ resource: 'release', action: 'update' }}>
      <ReleaseSettings />
    </RequireFleetPermission>
  );
};

const ReleaseSettings = () => {
  const { fleet, release, now } = useReleaseContext();
  const toasts = useToasts();
  const access = useFleetRole(fleet.id);
  const actions = releaseActions(
    {
      ...release,
      targetedByFleets: release.should_be_running_on__application.length,
      pinnedDevices: release.is_pinned_to__device,
    },
    {
      updateDenied: access.denied('release', 'update'),
      deleteDenied: access.denied('release', 'delete'),
    },
    now,
  );
  const patch = usePatchRelease(fleet.id, release.id, () =>
    toasts.show('success', 'Release updated'),
  );
  return (
    <Stack spacing={3}>
      <Paper
        variant="outlined"
        component="section"
        aria-label="Release settings"
        sx={{ px: 3, py: 1 }}
      >
        <Box>
          <ReleaseVersionRow
            semver={release.semver}
            blocked={actions.editVersion}
            pending={patch.isPending}
            onSave={(semver) => patch.mutate({ semver })}
          />
          <SettingRow
            title={release.is_invalidated ? 'Validate release' : 'Invalidate release'}
            description={
              release.is_invalidated
                ? 'Make the release available again for pinning and for fleets tracking the latest release.'
                : 'An invalidated release cannot be pinned; a fleet tracking the latest release moves to the newest valid one.'
            }
          >
            <DisabledReason reason={actions.toggleValidity}>
              <Button
                variant="outlined"
                color={release.is_invalidated ? 'primary' : 'warning'}
                disabled={actions.toggleValidity !== null || patch.isPending}
                onClick={() => patch.mutate({ is_invalidated: !release.is_invalidated })}
              >
                {release.is_invalidated ? 'Validate' : 'Invalidate'}
              </Button>
            </DisabledReason>
          </SettingRow>
          <SettingRow
            title="Finalize release"
            description="A draft release becomes final: devices can run it. This cannot be undone."
          >
            <DisabledReason reason={actions.finalize}>
              <Button
                variant="outlined"
                disabled={actions.finalize !== null || patch.isPending}
                onClick={() => patch.mutate({ is_final: true })}
              >
                Finalize
              </Button>
            </DisabledReason>
          </SettingRow>
          <SettingRow
            title="Cancel build"
            description="Stops the build where this server builds it; the release ends cancelled. A release deployed from another machine (balena deploy) is only marked cancelled."
          >
            <DisabledReason reason={actions.cancelBuild}>
              <Button
                variant="outlined"
                color="warning"
                disabled={actions.cancelBuild !== null || patch.isPending}
                onClick={() =>
                  patch.mutate({ status: 'cancelled', end_timestamp: new Date().toISOString() })
                }
              >
                Cancel build
              </Button>
            </DisabledReason>
          </SettingRow>
          <MutationError error={patch.error} fallback="Could not update the release" />
        </Box>
      </Paper>
      <ReleaseDangerZone
        application={fleet}
        release={release}
        blocked={actions.delete}
        mayDelete={access.can('release', 'delete')}
      />
    </Stack>
  );
};
