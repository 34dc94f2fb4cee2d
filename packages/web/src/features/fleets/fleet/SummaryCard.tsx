import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import type { FleetDetail } from '../../../fleet/api-fleet-detail.js';
import { SlugText } from '../../../ui/SlugText.js';
import { DefaultReleaseSelector } from './DefaultReleaseSelector.js';

const Field = ({ label, children }: { label: string; children: ReactNode }) => (
  <Box>
    <Typography variant="overline" color="text.secondary" component="dt">
      {label}
    </Typography>
    <Box component="dd" sx={{ m: 0, minWidth: 0 }}>
      {children}
    </Box>
  </Box>
);

const Copyable = ({ value, label }: { value: string; label: string }) => {
  const [copied, setCopied] = useState(false);
  const copy = async (): Promise<void> => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 1500);
  };
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
      <Typography sx={{ minWidth: 0 }}>
        <SlugText slug={value} monospace />
      </Typography>
      <Tooltip title={copied ? 'Copied' : `Copy ${label}`}>
        <IconButton size="small" aria-label={`Copy ${label}`} onClick={() => void copy()}>
          <ContentCopyIcon fontSize="inherit" />
        </IconButton>
      </Tooltip>
    </Stack>
  );
};

// Architecture, slug, creation date, type, image reference and the default release.
export const SummaryCard = ({
  fleet,
  releaseDenied,
}: {
  fleet: FleetDetail;
  releaseDenied: string | null;
}) => {
  const className = fleet.is_of__class;
  const deviceType = fleet.is_for__device_type[0];
  return (
    <Card variant="outlined" component="section" aria-label="Summary">
      <CardContent>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
          }}
        >
          <Field label="Architecture">
            <Typography>{deviceType?.is_of__cpu_architecture[0]?.slug ?? 'Unknown'}</Typography>
          </Field>
          <Field label="Default device type">
            <Typography>{deviceType?.name ?? 'Unknown'}</Typography>
          </Field>
          <Field label="Slug">
            <Copyable value={fleet.slug} label="slug" />
          </Field>
          <Field label="Created">
            <Typography>{new Date(fleet.created_at).toLocaleString()}</Typography>
          </Field>
          {className === 'fleet' ? (
            <Field label="Application type">
              <Typography>{fleet.application_type[0]?.name ?? 'Unknown'}</Typography>
            </Field>
          ) : null}
          {className === 'block' ? (
            // Blocks are pulled by their slug.
            <Field label="Image reference">
              <Copyable value={fleet.slug} label="image reference" />
            </Field>
          ) : null}
        </Box>
        <Box sx={{ mt: 3, maxWidth: 420 }}>
          {className === 'app' ? (
            <Tooltip title="Coming soon">
              <span>
                <Button variant="outlined" disabled>
                  Deploy to fleet · coming soon
                </Button>
              </span>
            </Tooltip>
          ) : (
            <DefaultReleaseSelector fleet={fleet} denied={releaseDenied} />
          )}
        </Box>
      </CardContent>
    </Card>
  );
};
