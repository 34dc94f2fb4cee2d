import { errorText } from '@flotilla/sdk/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { classListLabel } from './class-list-label.js';
import { useDeleteOrganization } from './api-organizations.js';

// Deleting an organization (its sole administrator may): the server refuses while it has fleets,
// so after the user typed its name the console deletes them first, then it.
export const DeleteOrganizationDialog = ({
  organization,
  fleetCount,
  onClose,
  onDeleted,
}: {
  organization: { id: number; name: string } | null;
  fleetCount: number;
  onClose: () => void;
  onDeleted: () => void;
}) => {
  const appsEnabled = useAppsEnabled();
  const remove = useDeleteOrganization({
    fleetCount,
    onDeleted: () => {
      remove.reset();
      onDeleted();
    },
  });
  return (
    <ConfirmDialog
      open={organization !== null}
      title={`Delete ${organization?.name ?? 'organization'}?`}
      confirmLabel="Delete organization"
      destructive
      pending={remove.isPending}
      error={remove.isError ? (errorText(remove.error) ?? 'Could not delete it') : null}
      {...(fleetCount > 0 && organization ? { confirmText: organization.name } : {})}
      onConfirm={() => organization && remove.mutate(organization.id)}
      onClose={() => {
        remove.reset();
        onClose();
      }}
    >
      {fleetCount > 0
        ? `This deletes the organization and everything in it (${classListLabel(appsEnabled).toLowerCase()}: ${fleetCount}) with all their devices and releases. It cannot be undone.`
        : 'This deletes the organization, its teams and memberships. It cannot be undone.'}
    </ConfirmDialog>
  );
};
