import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

// The centred card the guest screens (login, sign-up) share.
export const AuthFrame = ({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) => (
  <Box
    sx={{
      minHeight: '100vh',
      display: 'grid',
      placeItems: 'center',
      bgcolor: 'background.default',
      p: 2,
    }}
  >
    <Box sx={{ width: '100%', maxWidth: 420 }}>
      <Typography
        variant="h5"
        sx={{ fontWeight: 700, color: 'primary.main', textAlign: 'center', mb: 1 }}
      >
        Flotilla
      </Typography>
      {subtitle ? (
        <Typography color="text.secondary" sx={{ textAlign: 'center', mb: 3 }}>
          {subtitle}
        </Typography>
      ) : null}
      <Card>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h1" sx={{ fontSize: '1.5rem', mb: 3 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  </Box>
);
