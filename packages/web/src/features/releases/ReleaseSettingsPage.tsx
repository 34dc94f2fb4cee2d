import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { errorText } from '@flotilla/sdk/errors';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteRelease, usePatchRelease } from './api-release-edits.js';
import { useToasts } from '../../ui/toasts.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { MutationError } from '../../ui/MutationError.js';
import { SettingRow } from '../../ui/SettingRow.js';
import { useFleetRole } from '../../fleet/api-fleet-role.js';
import { fleetPath } from '../../fleet/class-names.js';
import { releaseActions, versionError } from './release-rules.js';
import { useReleaseContext } from './ReleaseLayout.js';

// The release's settings (seed 001 "Release pages", section 4 rules): version, validity,
// finalize, cancel a running build and delete, each enabled by the rules and the user's
// permissions.
export const ReleaseSettingsPage = () => {
  const { application, release, now } = useReleaseContext();
  const toasts = useToasts();
  const navigate = useNavigate();
  const access = useFleetRole(application.id);
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
  const [version, setVersion] = useState(release.semver);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const patch = usePatchRelease(application.id, release.id, () =>
    toasts.show('success', 'Release updated'),
  );
  const remove = useDeleteRelease(application.id, release.id, {
    announce: () =>
      toasts.show('success', `Release ${release.raw_version} was deleted`, {
        afterNavigation: true,
      }),
    // After deleting a release the user lands on the fleet page: the release's own page is gone.
    leave: async () => {
      await navigate(fleetPath(application.is_of__class, application.id));
    },
  });
  const typedError = version.trim() === release.semver ? null : versionError(version);
  return (
    <Stack spacing={3}>
      <Paper
        variant="outlined"
        component="section"
        aria-label="Release settings"
        sx={{ px: 3, py: 1 }}
      >
        <Box>
          <SettingRow
            title="Version"
            description="Three numbers, major.minor.patch (for example 1.4.0)."
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
              <DisabledReason reason={actions.editVersion}>
                <TextField
                  size="small"
                  label="Release version"
                  value={version}
                  disabled={actions.editVersion !== null}
                  error={typedError !== null}
                  helperText={typedError ?? ' '}
                  onChange={(event) => setVersion(event.target.value)}
                />
              </DisabledReason>
              <Button
                variant="outlined"
                disabled={
                  actions.editVersion !== null ||
                  typedError !== null ||
                  version.trim() === release.semver ||
                  patch.isPending
                }
                onClick={() => patch.mutate({ semver: version.trim() })}
              >
                Save version
              </Button>
            </Stack>
          </SettingRow>
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
      <Paper
        variant="outlined"
        component="section"
        aria-label="Danger zone"
        sx={{ p: 3, borderColor: 'error.main' }}
      >
        <Typography variant="h3" color="error" gutterBottom>
          Danger zone
        </Typography>
        <SettingRow
          title="Delete release"
          description="Deletes the release and its images. A release that a fleet should run or a device is pinned to cannot be deleted."
        >
          <DisabledReason reason={actions.delete}>
            <Button
              variant="contained"
              color="error"
              disabled={actions.delete !== null}
              onClick={() => setConfirmDelete(true)}
            >
              Delete release
            </Button>
          </DisabledReason>
        </SettingRow>
        {actions.delete !== null && access.can('release', 'delete') ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {actions.delete}
          </Alert>
        ) : null}
      </Paper>
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete release ${release.raw_version}?`}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        error={remove.isError ? (errorText(remove.error) ?? 'Could not delete the release') : null}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setConfirmDelete(false);
          remove.reset();
        }}
      >
        <Typography>This cannot be undone.</Typography>
      </ConfirmDialog>
    </Stack>
  );
};
