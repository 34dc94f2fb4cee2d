import Alert from '@mui/material/Alert';
import { SupportAccessNotice } from '../../api/session/SupportAccessNotice.js';
import { useOrganizationSupportGrants } from './api-support-access.js';

// What support agents and platform administrators see on an organization's pages: no support
// access, or until when (the latest grant of its fleets and devices). Nobody else sees it.
export const OrganizationSupportNotice = ({
  organizationId,
  member,
}: {
  organizationId: number;
  // The signed-in user is a member of the organization (then no notice).
  member: boolean;
}) => {
  const grants = useOrganizationSupportGrants(organizationId, member);
  if (member) return null;
  if (grants.isError) {
    return (
      <Alert severity="warning" sx={{ mb: 2 }}>
        Could not read whether support access is granted.
      </Alert>
    );
  }
  if (!grants.data) return null;
  return <SupportAccessNotice until={grants.data} subject="organization" member={false} />;
};
