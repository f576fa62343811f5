import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space } from 'antd';
import type { ChoosableColumn } from '../../lib/column-choice.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { columnTexts } from './texts.ts';

type Props = {
  columns: ChoosableColumn[];
  isShown: (column: ChoosableColumn) => boolean;
  onChoose: (key: string, shown: boolean) => void;
};

/** A button opening the table's choosable columns as checkboxes. */
export function ColumnChooser({ columns, isShown, onChoose }: Props) {
  const t = useTexts(columnTexts);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t.chooseColumns}
      content={
        <Space direction="vertical" size={4}>
          {columns.map((c) => (
            <Checkbox key={c.key} checked={isShown(c)} onChange={(e) => onChoose(c.key, e.target.checked)}>
              {c.title}
            </Checkbox>
          ))}
        </Space>
      }
    >
      <Button size="small" icon={<SettingOutlined />} aria-label={t.chooseColumns}>
        {t.columns}
      </Button>
    </Popover>
  );
}
