import FolderIcon from '@mui/icons-material/FolderOutlined';
import FileIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { assetTree, type AssetNode } from './asset-tree.js';
import { useReleaseAssets } from './api-releases.js';
import { byteSize } from './release-format.js';

const Row = ({ node }: { node: AssetNode }) => {
  if (node.kind === 'folder') {
    return (
      <li aria-label={`Folder ${node.path}`}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5 }}>
          <FolderIcon fontSize="small" color="action" aria-hidden />
          <Typography>{node.name}</Typography>
        </Box>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, pl: 3 }}>
          {node.children.map((child) => (
            <Row key={child.path} node={child} />
          ))}
        </Box>
      </li>
    );
  }
  const file = node.entry.asset;
  return (
    <li aria-label={`File ${node.path}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, flexWrap: 'wrap' }}>
        <FileIcon fontSize="small" color="action" aria-hidden />
        <Typography sx={{ overflowWrap: 'anywhere' }}>{node.name}</Typography>
        {file === null ? (
          <Typography color="text.secondary" variant="body2">
            No file uploaded
          </Typography>
        ) : (
          <>
            <Typography color="text.secondary" variant="body2">
              {byteSize(file.size)}
            </Typography>
            <Link href={file.href} download={file.filename} aria-label={`Download ${node.path}`}>
              Download
            </Link>
          </>
        )}
      </Box>
    </li>
  );
};

// The release's assets (files attached with balena-sdk's release.asset.upload) as a tree.
export const ReleaseAssets = ({ fleetId, releaseId }: { fleetId: number; releaseId: number }) => {
  const assets = useReleaseAssets(fleetId, releaseId);
  const tree = assetTree(assets.data ?? []);
  return (
    <Paper variant="outlined" component="section" aria-labelledby="release-assets-title">
      <Typography id="release-assets-title" variant="h3" sx={{ p: 2, pb: 1 }}>
        Assets
      </Typography>
      <Box sx={{ px: 2, pb: 2 }}>
        {assets.isPending ? (
          <Skeleton variant="rounded" height={48} aria-label="Loading assets" />
        ) : assets.isError ? (
          <Alert severity="error">Could not load the release assets.</Alert>
        ) : tree.length === 0 ? (
          <Typography color="text.secondary">No assets</Typography>
        ) : (
          <Box component="ul" aria-label="Release assets" sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {tree.map((node) => (
              <Row key={node.path} node={node} />
            ))}
          </Box>
        )}
      </Box>
    </Paper>
  );
};
