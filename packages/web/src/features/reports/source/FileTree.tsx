import type { ReportFile } from '@sextant/api';
import { Checkbox, Space, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo, useState } from 'react';
import { useTexts } from '../../../lib/i18n.tsx';
import { GradeValue } from '../components/GradeValue.tsx';
import { ancestorKeys, buildFileTree, type FileNode } from './file-tree.ts';
import { sourceTexts } from './texts.ts';

type TreeWords = { package: string; changedLines: string };

function toData(nodes: FileNode[], words: TreeWords): DataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    isLeaf: n.isLeaf,
    title: (
      <span className="file-node" title={n.key}>
        {n.isPackage ? <Tag color="purple">{words.package}</Tag> : null}
        {n.changed ? <Typography.Text strong>{n.name}</Typography.Text> : n.name}{' '}
        <GradeValue value={n.lineTotal > 0 ? n.lineCovered / n.lineTotal : null} />
        {n.isPackage && n.diffTotal > 0 ? (
          <Typography.Text type="secondary">
            {' '}
            {words.changedLines} {n.diffCovered}/{n.diffTotal}
          </Typography.Text>
        ) : null}
      </span>
    ),
    children: n.children ? toData(n.children, words) : undefined,
  }));
}

/** The report's files as a folder tree, each with its line coverage; changed files in bold. */
export function FileTree({
  files,
  selected,
  onSelect,
}: {
  files: ReportFile[];
  selected: string | undefined;
  onSelect: (path: string) => void;
}) {
  const t = useTexts(sourceTexts);
  const [changedOnly, setChangedOnly] = useState(false);
  const shown = useMemo(() => (changedOnly ? files.filter((f) => f.changed) : files), [files, changedOnly]);
  const data = useMemo(
    () => toData(buildFileTree(shown), { package: t.package, changedLines: t.changedLines }),
    [shown, t.package, t.changedLines],
  );
  const [expanded, setExpanded] = useState<React.Key[]>(() => (selected ? ancestorKeys(selected) : []));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Checkbox checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)}>
        {t.changedFilesOnly}
      </Checkbox>
      <Tree.DirectoryTree
        aria-label={t.files}
        treeData={data}
        selectedKeys={selected ? [selected] : []}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        onSelect={(_, info) => {
          if (info.node.isLeaf) onSelect(String(info.node.key));
        }}
      />
    </Space>
  );
}
