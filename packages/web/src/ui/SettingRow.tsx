import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

// One setting: title and explanation on the left, its controls on the right.
export const SettingRow = ({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) => {
  const titleId = useId();
  return (
    <Box
      component="section"
      aria-labelledby={titleId}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        py: 2,
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        '& + &': { borderTop: 1, borderColor: 'divider' },
      }}
    >
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        {description ? (
          <Typography variant="body2" color="text.secondary" component="div">
            {description}
          </Typography>
        ) : null}
      </Box>
      <Box sx={{ flex: '1 1 320px', minWidth: 0, maxWidth: 480 }}>{children}</Box>
    </Box>
  );
};
