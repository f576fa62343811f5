import { PATHS, type Screen, type Team, TeamSchema } from '@sextant/api';
import { Tag, Typography } from 'antd';
import { EntityListScreen } from '../../components/crud/EntityListScreen.tsx';
import type { EntitySpec } from '../../components/crud/types.ts';
import { useTexts } from '../../lib/i18n.tsx';
import { usePermission } from '../../lib/permissions.ts';
import { useScreenTitle } from '../../lib/screen-texts.ts';
import { useUserOptions } from '../../lib/user-options.ts';
import { teamTexts } from './texts.ts';

export default function TeamListPage({ screen }: { screen: Screen }) {
  const t = useTexts(teamTexts);
  const title = useScreenTitle(screen);
  const may = {
    create: usePermission('create', 'Team'),
    update: usePermission('update', 'Team'),
    remove: usePermission('delete', 'Team'),
  };
  const users = useUserOptions(may.create || may.update);
  const spec: EntitySpec<Team> = {
    noun: t.noun,
    emptyHint: t.emptyHint,
    path: PATHS.teams,
    schema: TeamSchema,
    can: may,
    columns: [
      { key: 'name', title: t.name, sortable: true },
      { key: 'leader', title: t.leader, render: (team) => team.leader?.displayName || team.leader?.username || '—' },
      {
        key: 'members',
        title: t.members,
        render: (team) =>
          team.members.length === 0 ? (
            <Typography.Text type="secondary">{t.none}</Typography.Text>
          ) : (
            team.members.slice(0, 5).map((m) => <Tag key={m.id}>{m.displayName || m.username}</Tag>)
          ),
      },
      {
        key: 'description',
        title: t.description,
        render: (team) => <Typography.Text ellipsis>{team.description}</Typography.Text>,
      },
    ],
    fields: [
      { name: 'name', label: t.name, required: true, maxLength: 100 },
      { name: 'leaderId', label: t.leader, kind: 'select', options: users },
      { name: 'memberIds', label: t.members, kind: 'tags', options: users },
      { name: 'description', label: t.description, kind: 'textarea', maxLength: 2000 },
    ],
    toFormValues: (team) => ({
      name: team.name,
      leaderId: team.leader?.id,
      memberIds: team.members.map((m) => m.id),
      description: team.description,
    }),
    fromFormValues: (v) => ({ ...v, leaderId: v.leaderId ?? null }),
  };
  return <EntityListScreen title={title} spec={spec} />;
}
