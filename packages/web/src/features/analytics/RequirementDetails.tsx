import type { RequirementAnalyticRow } from '@sextant/api';
import { Col, List, Row, Space, Tag, Typography } from 'antd';
import { fill, useTexts } from '../../lib/i18n.tsx';
import { methodLabel, useJvmWords } from '../../lib/jvm-words.ts';
import { casesTexts } from './cases-texts.ts';

/** A requirement's opened row: the commits naming it, the methods they changed with their coverage, its cases. */
export function RequirementDetails({ row: r }: { row: RequirementAnalyticRow }) {
  const t = useTexts(casesTexts);
  const words = useJvmWords();
  const mark = (v: boolean | null) =>
    v === null ? <Tag>{t.notMeasured}</Tag> : <Tag color={v ? 'success' : 'error'}>{v ? t.covered : t.notCovered}</Tag>;
  return (
    <Row gutter={[16, 8]}>
      <Col xs={24} xl={8}>
        <Typography.Text strong>{t.commits}</Typography.Text>
        <List
          size="small"
          dataSource={r.commits}
          locale={{ emptyText: t.noCommits }}
          renderItem={(c) => (
            <List.Item>
              <Typography.Text code>{c.sha.slice(0, 10)}</Typography.Text> {c.subject}{' '}
              <Typography.Text type="secondary">({c.appName})</Typography.Text>
            </List.Item>
          )}
        />
      </Col>
      <Col xs={24} xl={10}>
        <Typography.Text strong>{t.changedMethods}</Typography.Text>
        <List
          size="small"
          dataSource={r.methods}
          locale={{ emptyText: t.noMethods }}
          renderItem={(m) => (
            <List.Item>
              <Space wrap size={4}>
                <Typography.Text code title={m.className ? `${m.className}.${m.method}` : m.method}>
                  {methodLabel(m, words)}
                </Typography.Text>
                <Typography.Text type="secondary">{m.filePath}</Typography.Text>
                <span>
                  {t.unitCoverage}: {mark(m.unitCovered)}
                </span>
                <span>
                  {t.functionalCoverage}: {mark(m.functionalCovered)}
                </span>
              </Space>
            </List.Item>
          )}
        />
      </Col>
      <Col xs={24} xl={6}>
        <Typography.Text strong>{t.linkedCases}</Typography.Text>
        <List
          size="small"
          dataSource={r.cases}
          locale={{ emptyText: t.noCases }}
          renderItem={(c) => (
            <List.Item>
              <Space wrap size={4}>
                <Typography.Text code>{c.key}</Typography.Text>
                {c.title}
                <Tag color={c.runs > 0 ? 'success' : 'warning'}>
                  {c.runs > 0 ? fill(t.ran, { n: c.runs }) : t.neverRan}
                </Tag>
              </Space>
            </List.Item>
          )}
        />
      </Col>
    </Row>
  );
}
