import { createTheme } from '@mui/material/styles';

export const sidebarWidth = 220;
export const sidebarCollapsedWidth = 56;

export const theme = createTheme({
  palette: {
    primary: { main: '#1f4e8c' },
    secondary: { main: '#00a38d' },
    background: { default: '#f5f7fa' },
  },
  shape: { borderRadius: 8 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.4rem', fontWeight: 600 },
    h3: { fontSize: '1.15rem', fontWeight: 600 },
    h4: { fontSize: '1rem', fontWeight: 600 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { textTransform: 'none' } },
    },
    MuiCard: { defaultProps: { variant: 'outlined' } },
  },
});
