import type { Session } from '@flotilla/sdk/auth';
import { isAdmin } from '../session/useSession.js';

// The header's colour (seed 000 section 9): red for platform administrators, and while an
// administrator is logged in as someone else; the theme's primary colour otherwise.
export const headerColourOf = (session: Session | null): 'error' | 'primary' =>
  isAdmin(session) || session?.actualUser !== undefined ? 'error' : 'primary';
