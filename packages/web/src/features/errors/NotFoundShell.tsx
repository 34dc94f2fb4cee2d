import { Outlet } from 'react-router';
import { useSession } from '../../api/session/useSession.js';
import { NotFoundPage } from './NotFoundPage.js';

// "Page not found" keeps the console's sidebar and header for a signed-in user (the shell is
// the outlet here); a guest, who has no shell, gets the bare page.
export const NotFoundShell = () => {
  const session = useSession();
  const signedIn = session !== null && session.twoFactorRequired !== true;
  return signedIn ? <Outlet /> : <NotFoundPage />;
};
