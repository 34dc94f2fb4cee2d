// The release page's assets tree: asset keys with `/`
// are folders, e.g. `docs/manual.pdf` is the file manual.pdf in the folder docs.

export type AssetFile = { filename: string; size: number; href: string } | null;
export type AssetEntry = { id: number; asset_key: string; asset: AssetFile };

export type AssetNode =
  | { kind: 'folder'; name: string; path: string; children: AssetNode[] }
  | { kind: 'file'; name: string; path: string; entry: AssetEntry };

type Folder = Extract<AssetNode, { kind: 'folder' }>;

const byKindThenName = (a: AssetNode, b: AssetNode): number =>
  a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1;

const sortTree = (nodes: AssetNode[]): AssetNode[] =>
  nodes
    .map((node) => (node.kind === 'folder' ? { ...node, children: sortTree(node.children) } : node))
    .sort(byKindThenName);

// Folders first, then files, each by name; empty segments (`a//b`, a leading `/`) are skipped.
export const assetTree = (entries: readonly AssetEntry[]): AssetNode[] => {
  const root: Folder = { kind: 'folder', name: '', path: '', children: [] };
  for (const entry of entries) {
    const segments = entry.asset_key.split('/').filter((segment) => segment !== '');
    const fileName = segments.pop() ?? entry.asset_key;
    let folder = root;
    for (const segment of segments) {
      const path = folder.path === '' ? segment : `${folder.path}/${segment}`;
      let next = folder.children.find(
        (child): child is Folder => child.kind === 'folder' && child.name === segment,
      );
      if (!next) {
        next = { kind: 'folder', name: segment, path, children: [] };
        folder.children.push(next);
      }
      folder = next;
    }
    folder.children.push({ kind: 'file', name: fileName, path: entry.asset_key, entry });
  }
  return sortTree(root.children);
};
