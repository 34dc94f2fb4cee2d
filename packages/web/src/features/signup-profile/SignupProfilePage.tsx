import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Navigate, useNavigate } from 'react-router';
import { useLogout } from '../../api/session/api-session.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useProfile } from '../../api/session/profile-query.js';
import { ProfileForm, profileDraftOf } from '../preferences/ProfileTab.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import { finishProfileStep, pendingProfileStep } from './profile-step.js';

// /signup/profile: after sign-up, and after verification when it is required, the new user
// completes the profile (its required fields), then goes on to
// where they wanted to go when they signed up (or /).
export const SignupProfilePage = () => {
  usePageTitle('Complete your profile');
  const logout = useLogout();
  const navigate = useNavigate();
  const userId = useSession()?.userId;
  const profile = useProfile();
  if (profile.isPending) return <LoadingScreen label="Loading your profile" />;
  const data = profile.data;
  if (data?.must_be_verified === true && !data.is_verified) {
    return <Navigate to="/user/verify-email/pending" replace />;
  }
  const goOn = (): void => {
    if (userId === undefined) return;
    const target = pendingProfileStep(userId) ?? '/';
    finishProfileStep(userId);
    void navigate(target, { replace: true });
  };
  return (
    <AuthFrame title="Complete your profile">
      <Stack spacing={2}>
        {profile.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
                Retry
              </Button>
            }
          >
            Could not load your profile: {errorText(profile.error) ?? 'An error has occurred'}
          </Alert>
        ) : (
          <>
            <Typography>Tell us a little about yourself to start using Flotilla.</Typography>
            <ProfileForm initial={profileDraftOf(data)} submitLabel="Continue" onSaved={goOn} />
          </>
        )}
        <Button onClick={() => logout()}>Log out</Button>
      </Stack>
    </AuthFrame>
  );
};
