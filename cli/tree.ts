/** Draws a workspace tree the way `tree` does. */
import type { WorkspaceNode } from './client.js';

export interface TreeCounts {
  directories: number;
  files: number;
}

/** The lines of `node`'s children drawn with ├── └── │, and how many of each kind were drawn. */
export function drawTree(node: WorkspaceNode): { lines: string[]; counts: TreeCounts } {
  const lines: string[] = [];
  const counts: TreeCounts = { directories: 0, files: 0 };
  const walk = (dir: WorkspaceNode, prefix: string): void => {
    const children = dir.children ?? [];
    children.forEach((child, i) => {
      const last = i === children.length - 1 && !dir.truncated;
      const name = child.type === 'directory' ? `${child.name}/` : child.name;
      lines.push(`${prefix}${last ? '└── ' : '├── '}${name}`);
      if (child.type === 'directory') {
        counts.directories++;
        walk(child, prefix + (last ? '    ' : '│   '));
      } else counts.files++;
    });
    if (dir.truncated) lines.push(`${prefix}└── … (more entries not listed)`);
  };
  walk(node, '');
  return { lines, counts };
}
