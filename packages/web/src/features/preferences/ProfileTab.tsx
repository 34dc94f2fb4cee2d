import { errorText } from '@flotilla/sdk/errors';
import {
  type AccountType,
  isAccountType,
  profileFieldLabels,
  profileProblems,
} from '@flotilla/shared/users/profile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useState } from 'react';
import { usePublicConfig } from '../../api/config/api.js';
import { LoadingScreen } from '../../api/session/guards.js';
import { useSession } from '../../api/session/useSession.js';
import type { fetchProfile } from '../../api/session/profile-query.js';
import { type ProfileChange, useProfile, useSaveProfile } from './api-account.js';
import { SocialAccountsSection } from '../social-auth/SocialAccountsSection.js';

const accountTypeChoices: { value: AccountType | 'none'; label: string }[] = [
  { value: 'personal', label: 'Personal' },
  { value: 'professional', label: 'Professional' },
  { value: 'none', label: 'None of these' },
];

// The profile's fields (first and last name, company and account type required); also the sign-up's profile step, which goes on once saved (`onSaved`).
export const ProfileForm = ({
  initial,
  submitLabel = 'Save',
  onSaved,
}: {
  initial: ProfileChange;
  submitLabel?: string;
  onSaved?: () => void;
}) => {
  const [draft, setDraft] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const save = useSaveProfile(onSaved);
  const config = usePublicConfig();
  const problems = profileProblems(draft);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length === 0) save.mutate(draft);
  };
  const text = (field: 'first_name' | 'last_name' | 'company') => (
    <TextField
      label={profileFieldLabels[field]}
      value={draft[field]}
      onChange={(event) => setDraft({ ...draft, [field]: event.target.value })}
      error={submitted && problems[field] !== undefined}
      helperText={submitted ? problems[field] : undefined}
      required
    />
  );
  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate sx={{ maxWidth: 420 }}>
      {save.isSuccess && !onSaved ? <Alert severity="success">Profile saved.</Alert> : null}
      {save.isError ? (
        <Alert severity="error">{errorText(save.error) ?? 'failed save profile'}</Alert>
      ) : null}
      {text('first_name')}
      {text('last_name')}
      {text('company')}
      <TextField
        select
        label={profileFieldLabels.account_type}
        value={draft.account_type ?? 'none'}
        onChange={(event) =>
          setDraft({
            ...draft,
            account_type: isAccountType(event.target.value) ? event.target.value : null,
          })
        }
      >
        {accountTypeChoices.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
      {/* The choice is shown as "receive", stored as its negation (the account keeps whether the
          newsletter is turned off); offered only where the installation sends one. */}
      {config.data?.newsletterEnabled === true ? (
        <FormControlLabel
          control={
            <Checkbox
              checked={!draft.has_disabled_newsletter}
              onChange={(event) =>
                setDraft({ ...draft, has_disabled_newsletter: !event.target.checked })
              }
            />
          }
          label="Receive the newsletter"
        />
      ) : null}
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          {submitLabel}
        </Button>
      </Box>
    </Stack>
  );
};

// Preferences → Profile.
export const ProfileTab = () => {
  const session = useSession();
  const userId = session?.userId;
  const profile = useProfile(userId);
  if (profile.isPending) return <LoadingScreen label="Loading the profile" />;
  if (profile.isError) {
    return <Alert severity="error">{errorText(profile.error) ?? 'Could not load'}</Alert>;
  }
  return (
    <Stack spacing={4}>
      <ProfileForm initial={profileDraftOf(profile.data)} />
      {userId !== undefined ? <SocialAccountsSection userId={userId} /> : null}
    </Stack>
  );
};

// The form's starting values from the stored profile (empty fields when none is stored yet).
export const profileDraftOf = (
  data: Awaited<ReturnType<typeof fetchProfile>> | undefined,
): ProfileChange => ({
  first_name: data?.first_name ?? '',
  last_name: data?.last_name ?? '',
  company: data?.company ?? '',
  account_type: isAccountType(data?.account_type) ? data.account_type : null,
  has_disabled_newsletter: data?.has_disabled_newsletter ?? false,
});
