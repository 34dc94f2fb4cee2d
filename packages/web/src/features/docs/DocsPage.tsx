import { errorText } from '@flotilla/sdk/errors';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Navigate, Link as RouterLink, useParams } from 'react-router';
import { usePageTitle } from '../../ui/usePageTitle.js';
import { MarkdownText } from '../../ui/MarkdownText.js';
import { useDocSource } from './api.js';
import { docPageOf, docPages } from '../../api/doc-pages.js';
import { docSegments } from './doc-source.js';

// /docs/:page: one of the built-in documentation pages (the repository's Markdown, served by
// GET /docs/v1/:page), rendered with the console's safe Markdown subset.
export const DocsPage = () => {
  const { page = '' } = useParams();
  const doc = docPageOf(page);
  usePageTitle(doc?.title ?? 'Documentation');
  const source = useDocSource(page, doc !== undefined);
  if (!doc) return <Navigate to="/404" replace />;

  let content;
  if (source.isPending) {
    content = (
      <Box
        role="status"
        aria-label="Loading the documentation"
        sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}
      >
        <CircularProgress />
      </Box>
    );
  } else if (source.isError) {
    content = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void source.refetch()}>
            Retry
          </Button>
        }
      >
        {errorText(source.error) ?? 'Could not load the documentation'}
      </Alert>
    );
  } else {
    content = docSegments(source.data, doc.file, window.location.origin).map((segment, index) =>
      segment.kind === 'markdown' ? (
        <MarkdownText key={index} source={segment.text} lineBreaks="soft" />
      ) : (
        <Box
          key={index}
          component="pre"
          sx={{
            p: 1,
            my: 1,
            bgcolor: 'action.hover',
            borderRadius: 1,
            maxWidth: '100%',
            overflowX: 'auto',
            fontSize: '0.8rem',
          }}
        >
          {segment.text}
        </Box>
      ),
    );
  }

  return (
    <Box component="article" sx={{ maxWidth: 960, minWidth: 0 }}>
      <Typography variant="h1" gutterBottom>
        {doc.title}
      </Typography>
      <Box
        component="nav"
        aria-label="Documentation pages"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2 }}
      >
        {Object.entries(docPages).map(([key, other]) => (
          <Link
            key={key}
            component={RouterLink}
            to={`/docs/${key}`}
            underline={key === page ? 'none' : 'hover'}
            color={key === page ? 'text.primary' : 'primary'}
            {...(key === page ? { 'aria-current': 'page' as const } : {})}
          >
            {other.title}
          </Link>
        ))}
      </Box>
      {content}
    </Box>
  );
};
