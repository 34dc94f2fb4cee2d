import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { ComponentProps } from 'react';
import { classLabels } from '../../fleet/class-names.js';
import { PickListDialog } from '../../ui/PickListDialog.js';
import { AccessTable } from './AccessTable.js';

type AccessProps = ComponentProps<typeof AccessTable>;

// A team's fleets (apps, blocks) section: its accesses with their role, and "add to team" for
// those who manage the team, picking among the fleets it does not reach yet.
export const TeamFleetsSection = ({
  className,
  accesses,
  fleets,
  canManage,
  busy,
  adding,
  onAdding,
  onAdd,
  onChangeRole,
  onRemove,
}: {
  className: ApplicationClass;
  accesses: AccessProps['rows'];
  fleets: readonly { id: number; app_name: string }[];
  canManage: boolean;
  busy: boolean;
  adding: boolean;
  onAdding: (adding: boolean) => void;
  onAdd: (ids: readonly number[], role: string | undefined) => Promise<unknown>;
  onChangeRole: AccessProps['onChangeRole'];
  onRemove: AccessProps['onRemove'];
}) => (
  <>
    {canManage ? (
      <Stack direction="row">
        <Button variant="contained" onClick={() => onAdding(true)}>
          Add {classLabels[className].one.toLowerCase()} to team
        </Button>
      </Stack>
    ) : null}
    <AccessTable
      className={className}
      rows={accesses}
      canManage={canManage}
      busy={busy}
      onChangeRole={onChangeRole}
      onRemove={onRemove}
    />
    <PickListDialog
      open={adding}
      title={`Add ${classLabels[className].one.toLowerCase()} to team`}
      items={fleets.map((application) => ({ id: application.id, label: application.app_name }))}
      emptyText={`The team already reaches every ${classLabels[className].one.toLowerCase()} of the organization.`}
      roles={applicationMembershipRoles}
      defaultRole={defaultApplicationMembershipRole}
      submitLabel="Add"
      onSubmit={onAdd}
      onClose={() => onAdding(false)}
    />
  </>
);
