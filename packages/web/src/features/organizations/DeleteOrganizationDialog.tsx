import { errorText } from '@flotilla/sdk/errors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useToasts } from '../../ui/toasts.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.js';
import { useAppsEnabled } from '../../ui/useAppsEnabled.js';
import { classListLabel } from './class-list-label.js';
import { organizationsKey } from './organization-queries.js';

// Deleting an organization (seed 002 section 6: its sole administrator): the server refuses while
// it has fleets, so after the user typed its name the console deletes them first, then it.
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
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const appsEnabled = useAppsEnabled();
  const remove = useMutation({
    meta: { inlineError: true },
    mutationFn: async (id: number) => {
      if (fleetCount > 0) {
        await client.pine.delete({
          resource: 'application',
          options: { $filter: { organization: id } },
        });
      }
      await client.pine.delete({ resource: 'organization', id });
    },
    onSuccess: async () => {
      toasts.show('success', 'Organization deleted');
      await queryClient.invalidateQueries({ queryKey: organizationsKey });
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
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

// Leaving an organization: deleting one's own membership (the last administrator cannot).
export const useLeaveOrganization = (onLeft: () => void) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  return useMutation({
    mutationFn: (membershipId: number) =>
      client.pine.delete({ resource: 'organization_membership', id: membershipId }),
    onSuccess: async () => {
      toasts.show('success', 'You left the organization');
      await queryClient.invalidateQueries({ queryKey: organizationsKey });
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
      onLeft();
    },
  });
};
