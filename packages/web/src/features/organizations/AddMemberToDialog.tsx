import {
  applicationMembershipRoles,
  defaultApplicationMembershipRole,
} from '@flotilla/shared/permissions/roles';
import type { ApplicationClass } from '@flotilla/shared/fleets/fleet-name';
import { classLabels } from '../../fleet/class-names.js';
import { PickListDialog } from '../../ui/PickListDialog.js';

// "Add to team" / "Add to fleets": the teams or fleets (of the section's class) the member is not
// in yet, picked in a list; fleets with the role to give.
export const AddMemberToDialog = ({
  open,
  username,
  className,
  teams,
  fleets,
  onAddToTeams,
  onAddToFleets,
  onClose,
}: {
  open: boolean;
  username: string;
  className: ApplicationClass | null;
  teams: readonly { id: number; name: string }[];
  fleets: readonly { id: number; app_name: string }[];
  onAddToTeams: (ids: readonly number[]) => Promise<unknown>;
  onAddToFleets: (ids: readonly number[], role: string | undefined) => Promise<unknown>;
  onClose: () => void;
}) =>
  className === null ? (
    <PickListDialog
      open={open}
      title={`Add ${username} to team`}
      items={teams.map((team) => ({ id: team.id, label: team.name }))}
      emptyText="The member is in every team of the organization."
      submitLabel="Add"
      onSubmit={onAddToTeams}
      onClose={onClose}
    />
  ) : (
    <PickListDialog
      open={open}
      title={`Add ${username} to ${classLabels[className].many.toLowerCase()}`}
      items={fleets.map((application) => ({ id: application.id, label: application.app_name }))}
      emptyText={`The member is already in every ${classLabels[className].one.toLowerCase()} of the organization.`}
      roles={applicationMembershipRoles}
      defaultRole={defaultApplicationMembershipRole}
      submitLabel="Add"
      onSubmit={onAddToFleets}
      onClose={onClose}
    />
  );
