import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { loadRecaptcha } from './recaptcha.js';

// The reCAPTCHA checkbox. `onAnswer` gets the answer to send as `g-recaptcha-response`, and
// undefined when it expires. An answer is good for one sign-up attempt: re-mount (change the key)
// for a new one.
export const RecaptchaField = ({
  siteKey,
  onAnswer,
}: {
  siteKey: string;
  onAnswer: (answer: string | undefined) => void;
}) => {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    // A fresh element per render: reCAPTCHA refuses to render twice into one.
    const slot = document.createElement('div');
    container.current?.append(slot);
    loadRecaptcha().then(
      (recaptcha) => {
        if (!active) return;
        recaptcha.render(slot, {
          sitekey: siteKey,
          callback: (answer) => onAnswer(answer),
          'expired-callback': () => onAnswer(undefined),
          'error-callback': () => onAnswer(undefined),
        });
      },
      () => {
        if (active) setFailed(true);
      },
    );
    return () => {
      active = false;
      slot.remove();
    };
  }, [siteKey, onAnswer]);
  if (failed) {
    return (
      <Alert severity="error">
        The captcha could not be loaded. Check your connection and reload the page.
      </Alert>
    );
  }
  return (
    <Box
      ref={container}
      data-testid="recaptcha"
      sx={{ display: 'flex', justifyContent: 'center' }}
    />
  );
};
