import { supportAttachmentMaxBytes } from '@flotilla/shared/support/support-tickets';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';

const sizeText = (bytes: number): string =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// Files to attach, each shown with its size; one over the limit is marked.
export const AttachmentPicker = ({
  files,
  onChange,
}: {
  files: readonly File[];
  onChange: (files: File[]) => void;
}) => (
  <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
    <Button component="label" variant="outlined" startIcon={<AttachFileIcon />}>
      Attach files
      <input
        hidden
        type="file"
        multiple
        aria-label="Attachments"
        onChange={(event) => {
          const picked = Array.from(event.target.files ?? []);
          event.target.value = '';
          onChange([...files, ...picked]);
        }}
      />
    </Button>
    {files.length === 0 ? null : (
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {files.map((file, index) => (
          <Chip
            key={`${file.name}-${index}`}
            label={`${file.name} (${sizeText(file.size)})`}
            color={file.size > supportAttachmentMaxBytes ? 'error' : 'default'}
            onDelete={() => onChange(files.filter((_file, at) => at !== index))}
            deleteIcon={<CloseIcon aria-label={`Remove ${file.name}`} />}
          />
        ))}
      </Stack>
    )}
  </Stack>
);
