import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { DeviceTag } from '../../device/device-rows.js';

// Tags as chips; long ones are cut at 100 px with the whole text in a tooltip.
export const TagChips = ({ tags }: { tags: readonly DeviceTag[] }) =>
  tags.length === 0 ? null : (
    <Stack
      component="ul"
      direction="row"
      aria-label="Tags"
      sx={{ flexWrap: 'wrap', gap: 0.5, p: 0, m: 0, listStyle: 'none' }}
    >
      {tags.map((tag) => {
        const text = tag.value === '' ? tag.tag_key : `${tag.tag_key}: ${tag.value}`;
        return (
          <li key={tag.id}>
            <Tooltip
              title={<span style={{ maxWidth: 200, overflowWrap: 'anywhere' }}>{text}</span>}
            >
              <Chip size="small" label={text} sx={{ maxWidth: 100 }} />
            </Tooltip>
          </li>
        );
      })}
    </Stack>
  );
