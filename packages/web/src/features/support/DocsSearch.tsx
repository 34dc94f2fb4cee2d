import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useDebounced } from '../../ui/useDebounced.js';
import { searchDocs, useDocTexts } from './api-docs.js';

const maxHits = 5;

// Searches the console's own documentation pages; each hit opens its page.
export const DocsSearch = ({ onNavigate }: { onNavigate: () => void }) => {
  const [query, setQuery] = useState('');
  const debounced = useDebounced(query, 200);
  const texts = useDocTexts(query.trim() !== '');
  const hits = texts.data ? searchDocs(texts.data, debounced).slice(0, maxHits) : [];
  return (
    <>
      <TextField
        size="small"
        fullWidth
        label="Search the documentation"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {query.trim() === '' ? null : texts.isPending ? (
        <Skeleton variant="rounded" height={60} sx={{ mt: 1 }} aria-label="Searching" />
      ) : texts.isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          Could not search the documentation
        </Alert>
      ) : hits.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {debounced.trim() === '' ? 'Searching…' : 'No page matches.'}
        </Typography>
      ) : (
        <List dense aria-label="Documentation results">
          {hits.map((hit) => (
            <ListItem key={hit.page} disableGutters>
              <ListItemText
                primary={
                  <Link component={RouterLink} to={`/docs/${hit.page}`} onClick={onNavigate}>
                    {hit.title}
                  </Link>
                }
                secondary={hit.excerpt}
              />
            </ListItem>
          ))}
        </List>
      )}
    </>
  );
};
