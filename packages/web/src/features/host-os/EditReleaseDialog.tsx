import { errorText } from '@flotilla/sdk/errors';
import type { CatalogueEditBody, CatalogueRelease } from '@flotilla/shared/host-os/catalogue';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useEditRelease } from './api.js';
import { releaseName } from './CatalogueTable.js';
import { DescriptionFields } from './DescriptionFields.js';
import {
  baseVersionOf,
  baseVersionProblem,
  changedFields,
  descriptionOf,
  draftOf,
  imageProblem,
  isEsrOsRelease,
} from './release-form.js';

// Edits what describes a release; its identity (kind, device type or architecture, version,
// variant) stays: to change it, the administrator removes the release and adds another.
export const EditReleaseDialog = ({
  release,
  onClose,
  onEdited,
}: {
  release: CatalogueRelease;
  onClose: () => void;
  onEdited: (release: CatalogueRelease) => void;
}) => {
  const [draft, setDraft] = useState(() => draftOf(release));
  const [touched, setTouched] = useState(false);
  const edit = useEditRelease(onEdited);
  const esr = isEsrOsRelease(release.kind, release.version);
  const base = esr ? baseVersionOf(draft) : null;
  const changes: CatalogueEditBody = {
    ...changedFields(descriptionOf(draftOf(release)), descriptionOf(draft)),
    ...(esr && base !== (release.baseVersion ?? null) ? { baseVersion: base } : {}),
  };
  const unchanged = Object.keys(changes).length === 0;
  const submit = () => {
    setTouched(true);
    const problem =
      imageProblem(draft.updaterImage) ?? (esr ? baseVersionProblem(draft.baseVersion) : null);
    if (problem !== null || unchanged) return;
    edit.mutate({ id: release.id, body: changes });
  };
  const name = releaseName(release);
  return (
    <Dialog open onClose={edit.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>
        Edit {release.kind === 'os' ? 'OS' : 'supervisor'} release {name}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {release.application}. To change the device type, architecture, version or variant,
            remove this release and add another.
          </Typography>
          <DescriptionFields draft={draft} onChange={setDraft} touched={touched} esr={esr} />
          {edit.isError ? (
            <Alert severity="error">{errorText(edit.error) ?? 'Could not save the release'}</Alert>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={edit.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} disabled={edit.isPending || unchanged}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
};
