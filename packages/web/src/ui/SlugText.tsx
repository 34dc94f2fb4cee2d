import Box from '@mui/material/Box';
import { Fragment } from 'react';

// A slug's parts with where a line may break: after each / and -, never inside a word.
export const slugParts = (slug: string): string[] => slug.match(/[^/-]*[/-]|[^/-]+$/g) ?? [slug];

// A slug (organization/fleet, fleet-name) that wraps only after / or -; a part too long for its
// box ends in an ellipsis, the whole slug in the tooltip.
export const SlugText = ({ slug, monospace = false }: { slug: string; monospace?: boolean }) => (
  <Box
    component="span"
    title={slug}
    sx={{
      display: 'inline-block',
      maxWidth: '100%',
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      overflowWrap: 'normal',
      wordBreak: 'normal',
      verticalAlign: 'bottom',
      fontFamily: monospace ? 'monospace' : undefined,
    }}
  >
    {slugParts(slug).map((part, index) => (
      <Fragment key={index}>
        {part}
        <wbr />
      </Fragment>
    ))}
  </Box>
);
