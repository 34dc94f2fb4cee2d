import { errorText } from '@flotilla/sdk/errors';
import {
  isSocialProvider,
  type SocialExchangeAnswer,
  type SocialProvider,
  socialProviderLabels,
} from '@flotilla/shared/social-auth/social-providers';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useRef } from 'react';
import { Link as RouterLink, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { LoadingScreen } from '../../api/session/guards.js';
import {
  reauthConfirmedMessage,
  takeReauthReturnPath,
} from '../../api/session/reauth-return-path.js';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { useToasts } from '../../ui/toasts.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useSocialExchange } from './api.js';
import { LinkAccountForm } from './LinkAccountForm.js';
import { takeReturnPath } from './return-path.js';

// Once signed in, the login page's guard moves on: to the second factor when the account has
// one, then to where the user was going.
const useGoOn = () => {
  const navigate = useNavigate();
  return () => {
    const path = takeReturnPath();
    void navigate(path === null ? '/login' : `/login?redirect=${encodeURIComponent(path)}`, {
      replace: true,
    });
  };
};

const Callback = ({ provider }: { provider: SocialProvider }) => {
  const label = socialProviderLabels[provider];
  usePageTitle(`Sign in with ${label}`);
  const location = useLocation();
  const navigate = useNavigate();
  const toasts = useToasts();
  const goOn = useGoOn();
  const exchange = useSocialExchange(provider);
  // The provider's answer is single-use: it is handed over once, even when React runs the
  // effect twice.
  const handedOver = useRef(false);
  useEffect(() => {
    if (handedOver.current) return;
    handedOver.current = true;
    exchange.mutate(location.search.replace(/^\?/, ''), {
      onSuccess: (answer: SocialExchangeAnswer) => {
        if (answer.outcome === 'signed-in') goOn();
        if (answer.outcome === 'linked') {
          toasts.show('success', `Your ${label} account is linked: you can sign in with it`);
          void navigate('/preferences/profile', { replace: true });
        }
        // Back from confirming the identity (the re-authentication dialog): to where it was.
        if (answer.outcome === 'reauthenticated') {
          toasts.show('success', reauthConfirmedMessage);
          void navigate(takeReauthReturnPath(), { replace: true });
        }
      },
    });
  }, [exchange, location.search, goOn, navigate, toasts, label]);

  const answer = exchange.data;
  if (exchange.isError) {
    return (
      <AuthFrame title={`Sign in with ${label}`}>
        <Stack spacing={2}>
          <Alert severity="error">
            {errorText(exchange.error) ?? `Could not sign in with ${label}`}
          </Alert>
          <Button component={RouterLink} to="/login" variant="contained">
            Back to login
          </Button>
        </Stack>
      </AuthFrame>
    );
  }
  if (answer?.outcome === 'link-required') {
    return (
      <AuthFrame title={`Link your ${label} account`}>
        <LinkAccountForm provider={provider} pending={answer} onSignedIn={goOn} />
      </AuthFrame>
    );
  }
  return <LoadingScreen label={`Signing in with ${label}`} />;
};

// /auth/{provider}/callback: where the provider sends the browser back.
export const SocialCallbackPage = () => {
  const { provider = '' } = useParams();
  if (!isSocialProvider(provider)) return <Navigate to="/404" replace />;
  return <Callback provider={provider} />;
};
