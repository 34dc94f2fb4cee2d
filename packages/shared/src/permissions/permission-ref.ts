// A permission named by its parts, as the action tables of the console's features state what
// an action needs: `resin.<resource>.<action>` in the permission table.
export type PermissionRef = { resource: string; action: string };
