import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { type CookieChoice, readCookieChoice, writeCookieChoice } from '../../ui/cookie-choice.js';
import { usePublicConfig } from './api.js';

// The analytics adapter GET /config names, or null: Flotilla has none, so it is always null
// unless an installation adds one.
export const analyticsOf = (config: unknown): string | null => {
  if (typeof config !== 'object' || config === null || !('analytics' in config)) return null;
  return typeof config.analytics === 'string' && config.analytics !== '' ? config.analytics : null;
};

// Whether the banner still has something to ask: nothing answered yet, or analytics offered
// now while the earlier answer was given without that choice.
export const cookieBannerNeeded = (choice: CookieChoice | null, analytics: string | null) =>
  choice === null || (analytics !== null && choice.analytics === null);

// The cookie banner, with the analytics choice only when an analytics adapter
// is configured. It sits in the page flow under the header (not floating), so it never covers a
// dialog, a toast or a table row.
export const CookieBanner = () => {
  const config = usePublicConfig();
  const [choice, setChoice] = useState<CookieChoice | null>(readCookieChoice);
  // Until /config answers it is not known what to ask; a failed /config offers no analytics.
  if (config.isPending) return null;
  const analytics = analyticsOf(config.data);
  if (!cookieBannerNeeded(choice, analytics)) return null;
  const save = (next: CookieChoice): void => {
    try {
      writeCookieChoice(next);
    } catch {
      // Without storage the banner simply shows again next time.
    }
    setChoice(next);
  };
  return (
    <Alert
      severity="info"
      square
      role="region"
      aria-label="Cookies and storage"
      action={
        analytics === null ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => save({ essentials: true, analytics: null })}
          >
            OK
          </Button>
        ) : (
          <>
            <Button
              color="inherit"
              size="small"
              onClick={() => save({ essentials: true, analytics: false })}
            >
              Essentials only
            </Button>
            <Button
              color="inherit"
              size="small"
              variant="outlined"
              onClick={() => save({ essentials: true, analytics: true })}
            >
              Accept analytics
            </Button>
          </>
        )
      }
    >
      {analytics === null
        ? 'Flotilla keeps only essential data in this browser: your sign-in and your display preferences. Nothing tracks you.'
        : `Flotilla uses essential storage to keep you signed in and, if you accept, analytics (${analytics}) to improve the product.`}
    </Alert>
  );
};
