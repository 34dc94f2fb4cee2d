import type { FlotillaAlertRuleWrite } from '@flotilla/sdk/resources/alert-rule';
import { grants, organizationRolePermissions } from '@flotilla/shared/permissions/permissions';
import { organizationRoles } from '@flotilla/shared/permissions/roles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useClient } from '../../api/client.js';
import { useSession } from '../../api/session/useSession.js';
import { alertKeys } from './query-keys.js';

// An organization's alert rules, by name, with the fleet each watches.
export const useAlertRules = (organizationId: number) => {
  const client = useClient();
  return useQuery({
    queryKey: alertKeys.rules(organizationId),
    queryFn: () =>
      client.pine.get({
        resource: 'flotilla_alert_rule',
        options: {
          $select: [
            'id',
            'name',
            'condition',
            'metric',
            'threshold',
            'pattern',
            'for_minutes',
            'repeat_interval_minutes',
            'is_enabled',
            'is_silenced_until__date',
          ],
          $filter: { belongs_to__organization: organizationId },
          $expand: { applies_to__application: { $select: ['id', 'app_name'] } },
          $orderby: { name: 'asc' },
        },
      }),
  });
};

export type AlertRuleRow = NonNullable<ReturnType<typeof useAlertRules>['data']>[number];

// The organization's fleets a rule may be narrowed to.
export const useOrganizationFleets = (organizationId: number, enabled: boolean) => {
  const client = useClient();
  return useQuery({
    queryKey: alertKeys.fleets(organizationId),
    enabled,
    queryFn: () =>
      client.pine.get({
        resource: 'application',
        options: {
          $select: ['id', 'app_name'],
          $filter: { organization: organizationId },
          $orderby: { app_name: 'asc' },
        },
      }),
  });
};

const isOrganizationRole = (name: string | undefined) =>
  organizationRoles.find((role) => role === name);

// Whether the signed-in user may write the organization's alert rules (the shared permission
// table the server enforces: its administrators).
export const useMayWriteAlertRules = (organizationId: number): boolean | undefined => {
  const client = useClient();
  const userId = useSession()?.userId ?? 0;
  const own = useQuery({
    queryKey: alertKeys.role(organizationId, userId),
    enabled: userId > 0,
    queryFn: async () =>
      (
        await client.pine.get({
          resource: 'organization_membership',
          options: {
            $select: ['id'],
            $filter: { is_member_of__organization: organizationId, user: userId },
            $expand: { organization_membership_role: { $select: ['name'] } },
          },
        })
      )[0] ?? null,
  });
  if (own.isPending) return undefined;
  const role = isOrganizationRole(own.data?.organization_membership_role[0]?.name);
  return (
    role !== undefined && grants(organizationRolePermissions[role], 'flotilla_alert_rule', 'create')
  );
};

export type AlertRuleInput = Omit<FlotillaAlertRuleWrite, 'belongs_to__organization'>;

// Creating, changing and deleting rules; each refreshes the list.
export const useAlertRuleWrites = (organizationId: number) => {
  const client = useClient();
  const queryClient = useQueryClient();
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: alertKeys.rules(organizationId) });
  const create = useMutation({
    meta: { inlineError: true },
    mutationFn: (rule: AlertRuleInput) =>
      client.pine.post({
        resource: 'flotilla_alert_rule',
        body: { ...rule, belongs_to__organization: organizationId },
      }),
    onSuccess,
  });
  const update = useMutation({
    mutationFn: ({ id, change }: { id: number; change: Partial<AlertRuleInput> }) =>
      client.pine.patch({ resource: 'flotilla_alert_rule', id, body: change }),
    onSuccess,
  });
  const remove = useMutation({
    meta: { inlineError: true },
    mutationFn: (id: number) => client.pine.delete({ resource: 'flotilla_alert_rule', id }),
    onSuccess,
  });
  return { create, update, remove };
};
