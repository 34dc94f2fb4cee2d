import {
  type SocialProvider,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import GitHubIcon from '@mui/icons-material/GitHub';
import GoogleIcon from '@mui/icons-material/Google';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import { useLocation } from 'react-router';
import { useSocialProviders, useSocialStartUrl } from './api.js';
import { keepReturnPath } from './return-path.js';

export const socialProviderIcons: Record<SocialProvider, typeof GitHubIcon> = {
  github: GitHubIcon,
  google: GoogleIcon,
};

// The login page's "Log in with …" buttons, one per provider the operator configured (none
// otherwise). They leave the console for the server's start of the sign-in, which sends the
// browser on to the provider; the `redirect` query is kept for the way back.
export const SocialButtons = () => {
  const providers = useSocialProviders();
  const startUrl = useSocialStartUrl();
  const location = useLocation();
  if (providers.length === 0) return null;
  return (
    <Stack spacing={1}>
      <Divider>or</Divider>
      {providers.map((provider) => {
        const Icon = socialProviderIcons[provider];
        return (
          <Button
            key={provider}
            variant="outlined"
            href={startUrl(provider)}
            startIcon={<Icon />}
            onClick={() => keepReturnPath(location.search)}
          >
            Log in with {socialProviderLabels[provider]}
          </Button>
        );
      })}
    </Stack>
  );
};
