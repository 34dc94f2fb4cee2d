// Query keys of the alerts feature.
export const alertKeys = {
  all: ['alerts'] as const,
  rules: (organizationId: number) => ['alerts', 'rules', organizationId] as const,
  fleets: (organizationId: number) => ['alerts', 'fleets', organizationId] as const,
  role: (organizationId: number, userId: number) =>
    ['alerts', 'role', organizationId, userId] as const,
};
