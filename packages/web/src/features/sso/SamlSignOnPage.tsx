import { errorText } from '@flotilla/sdk/errors';
import { samlSignInMessages } from '@flotilla/shared/sso/saml-sign-in';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { AuthFrame } from '../../ui/AuthFrame.js';
import { RedirectWithMessage } from '../../ui/RedirectWithMessage.js';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { useFinalizeSaml } from './api-sign-in.js';
import { takeReturnUrl } from './return-url.js';

// /saml/callback/signon: the identity provider vouched for the user; the code becomes a session
// and the user goes where they were going.
export const SamlSignOnPage = () => {
  usePageTitle('Enterprise login');
  const [search] = useSearchParams();
  const code = search.get('code');
  const finalize = useFinalizeSaml();
  const sent = useRef(false);
  const [target, setTarget] = useState<string | null>(null);

  useEffect(() => {
    if (code === null || sent.current) return;
    sent.current = true;
    finalize.mutate({ code, merge: false }, { onSuccess: () => setTarget(takeReturnUrl()) });
  }, [code, finalize]);

  if (code === null) {
    return <RedirectWithMessage to="/login" message={samlSignInMessages.missingCode} />;
  }
  if (finalize.isError) {
    return (
      <RedirectWithMessage
        to="/login"
        message={errorText(finalize.error) ?? samlSignInMessages.invalidCode}
      />
    );
  }
  if (target !== null) return <Navigate to={target} replace />;
  return (
    <AuthFrame title="Enterprise login">
      <Typography role="status">Signing you in…</Typography>
    </AuthFrame>
  );
};
