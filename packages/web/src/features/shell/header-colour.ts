import type { Session } from '@flotilla/sdk/auth';
import { isAdmin } from '../../api/session/useSession.js';

// Whether the header is red unless the user chose a colour (Preferences → Experimental,
// local-preferences.ts headerBackground): for platform administrators, and while an
// administrator is logged in as someone else, so that acting with their power stands out.
export const headerRedByDefault = (session: Session | null): boolean =>
  isAdmin(session) || session?.actualUser !== undefined;
