import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { FleetDetail } from '../../fleet/api-fleet-detail.js';
import { fleetPath } from '../../fleet/class-names.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { DisabledReason } from '../../ui/DisabledReason.js';
import { SettingRow } from '../../ui/SettingRow.js';
import { useToasts } from '../../ui/toasts.js';
import { useDeleteRelease } from './api-release-edits.js';
import type { ReleaseDetail } from './api-releases.js';

// Deleting the release, after a confirmation; why it cannot be deleted when the user could
// otherwise.
export const ReleaseDangerZone = ({
  application,
  release,
  blocked,
  mayDelete,
}: {
  application: FleetDetail;
  release: ReleaseDetail;
  // Why the release cannot be deleted, or null.
  blocked: string | null;
  // The user holds the permission (the reason is then worth showing).
  mayDelete: boolean;
}) => {
  const toasts = useToasts();
  const navigate = useNavigate();
  const [confirmDelete, setConfirmDelete] = useState(false);
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
  return (
    <>
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
          <DisabledReason reason={blocked}>
            <Button
              variant="contained"
              color="error"
              disabled={blocked !== null}
              onClick={() => setConfirmDelete(true)}
            >
              Delete release
            </Button>
          </DisabledReason>
        </SettingRow>
        {blocked !== null && mayDelete ? (
          <Alert severity="info" sx={{ mt: 2 }}>
            {blocked}
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
    </>
  );
};
