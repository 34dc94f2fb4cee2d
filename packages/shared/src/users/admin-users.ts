// The platform administrators' user list (GET /admin/v1/users) and login-as (PATCH /login_),
// as the server answers and the console reads them.
export type AdminUser = {
  id: number;
  username: string;
  email: string | null;
  createdAt: string;
  // Platform roles held (balena_admin, support_agent).
  platformRoles: string[];
};

export type AdminUserPage = { total: number; users: AdminUser[] };

export const adminUserPageSize = 25;
export const adminUserSearchMaxLength = 100;

// Where the console keeps the administrator's own token while signed in as someone else.
export const adminReturnTokenKey = 'flotilla.adminReturnToken';
