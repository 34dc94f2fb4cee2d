// What a fleet role needs to see the fleet's and its devices' history (the permission tables'
// audit_log_entry "read"); no imports, so the device tabs can hold it in any chunk.
export const auditHistoryPermission = { resource: 'audit_log_entry', action: 'read' } as const;
