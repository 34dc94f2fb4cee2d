import { useOutletContext } from 'react-router';
import type { OrganizationAccess, organizationDetailQuery } from './api-organizations.js';

export type OrganizationDetail = NonNullable<
  Awaited<ReturnType<ReturnType<typeof organizationDetailQuery>['queryFn']>>
>;

// What the organization layout hands its pages.
export type OrganizationContext = { organization: OrganizationDetail; access: OrganizationAccess };

export const useOrganizationContext = (): OrganizationContext =>
  useOutletContext<OrganizationContext>();
