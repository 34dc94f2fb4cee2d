import { catalogueLimits, catalogueReleasePhases } from '@flotilla/shared/host-os/catalogue';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MarkdownText } from '../../ui/MarkdownText.js';
import {
  baseVersionProblem,
  type DescriptionDraft,
  imageProblem,
  isPhase,
} from './release-form.js';

// What describes a release, in the add and edit dialogs alike.
export const DescriptionFields = ({
  draft,
  onChange,
  touched,
  esr = false,
}: {
  draft: DescriptionDraft;
  onChange: (draft: DescriptionDraft) => void;
  touched: boolean;
  // An ESR OS release: its base version is asked for too.
  esr?: boolean;
}) => {
  const set = (change: Partial<DescriptionDraft>) => onChange({ ...draft, ...change });
  const image = imageProblem(draft.updaterImage);
  const base = baseVersionProblem(draft.baseVersion);
  return (
    <>
      <TextField
        select
        label="Phase"
        value={draft.phase}
        onChange={(event) => set({ phase: isPhase(event.target.value) ? event.target.value : '' })}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">None</MenuItem>
        {catalogueReleasePhases.map((phase) => (
          <MenuItem key={phase} value={phase}>
            {phase}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Updater image"
        placeholder="registry.example.com/balena-os/raspberrypi4-64:6.0.13"
        value={draft.updaterImage}
        onChange={(event) => set({ updaterImage: event.target.value })}
        error={touched && image !== null}
        helperText={
          touched && image !== null ? image : 'The image a device runs to move to this release.'
        }
        slotProps={{ htmlInput: { maxLength: catalogueLimits.updaterImage } }}
      />
      {esr ? (
        <TextField
          label="ESR base version"
          placeholder="6.0.13"
          value={draft.baseVersion}
          onChange={(event) => set({ baseVersion: event.target.value })}
          error={touched && base !== null}
          helperText={
            touched && base !== null
              ? base
              : 'The regular version this ESR release was cut from: devices above it cannot switch to it.'
          }
          slotProps={{ htmlInput: { maxLength: catalogueLimits.version } }}
        />
      ) : null}
      <TextField
        label="Known issues"
        multiline
        minRows={2}
        value={draft.knownIssues}
        onChange={(event) => set({ knownIssues: event.target.value })}
        slotProps={{ htmlInput: { maxLength: catalogueLimits.knownIssues } }}
      />
      <TextField
        label="Release notes"
        multiline
        minRows={3}
        value={draft.notes}
        onChange={(event) => set({ notes: event.target.value })}
        helperText="Markdown; shown as the release's changelog."
        slotProps={{ htmlInput: { maxLength: catalogueLimits.notes } }}
      />
      {draft.notes.trim() === '' ? null : (
        <Paper variant="outlined" sx={{ p: 1.5 }} aria-label="Release notes preview">
          <Typography variant="caption" color="text.secondary">
            Preview
          </Typography>
          <Box sx={{ maxHeight: 200, overflow: 'auto' }}>
            <MarkdownText source={draft.notes} />
          </Box>
        </Paper>
      )}
      <FormControlLabel
        control={
          <Checkbox
            checked={draft.invalidated}
            onChange={(event) => set({ invalidated: event.target.checked })}
          />
        }
        label="Invalidated: no longer offered to devices"
      />
    </>
  );
};
