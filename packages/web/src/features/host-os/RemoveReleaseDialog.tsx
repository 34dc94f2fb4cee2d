import { errorText, FlotillaApiError } from '@flotilla/sdk/errors';
import type { CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useEditRelease, useRemoveRelease } from './api.js';
import { releaseName } from './CatalogueTable.js';

const devicesText = (count: number): string =>
  count === 1 ? '1 device is' : `${count} devices are`;

// Removing asks first. A release devices are still told to run cannot go (409): the dialog says
// so, from the list's count before trying and from the server's answer after, and offers to
// invalidate it instead, which stops offering it and leaves those devices as they are.
export const RemoveReleaseDialog = ({
  release,
  onClose,
  onDone,
}: {
  release: CatalogueRelease;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const name = releaseName(release);
  const remove = useRemoveRelease(() => onDone(`${name} was removed from the catalogue`));
  const invalidate = useEditRelease(() => onDone(`${name} is invalidated`));
  const refused = remove.error instanceof FlotillaApiError && remove.error.status === 409;
  const inUse = refused || release.devices > 0;
  return (
    <ConfirmDialog
      open
      title={`Remove ${release.kind === 'os' ? 'OS' : 'supervisor'} release ${name}?`}
      confirmLabel="Remove"
      destructive
      confirmDisabled={refused}
      pending={remove.isPending || invalidate.isPending}
      error={
        remove.isError && !refused
          ? (errorText(remove.error) ?? 'Could not remove the release')
          : null
      }
      onConfirm={() => remove.mutate(release.id)}
      onClose={onClose}
    >
      <Typography>
        The release leaves the catalogue with its notes and updater image. Only a release no device
        is told to run can be removed.
      </Typography>
      {inUse ? (
        <Alert
          severity="warning"
          action={
            release.invalidated ? null : (
              <Button
                color="inherit"
                size="small"
                disabled={invalidate.isPending}
                onClick={() => invalidate.mutate({ id: release.id, body: { invalidated: true } })}
              >
                Invalidate instead
              </Button>
            )
          }
        >
          <AlertTitle>Still in use</AlertTitle>
          {refused
            ? `${errorText(remove.error) ?? 'Devices are told to run this release'}. `
            : `${devicesText(release.devices)} told to run this release. `}
          {release.invalidated
            ? 'It is already invalidated, so it is no longer offered.'
            : 'Invalidating it stops offering it and leaves those devices as they are.'}
        </Alert>
      ) : null}
      {invalidate.isError ? (
        <Alert severity="error">
          {errorText(invalidate.error) ?? 'Could not invalidate the release'}
        </Alert>
      ) : null}
    </ConfirmDialog>
  );
};
