import { defineTexts } from '../../lib/i18n.tsx';

export const aboutTexts = defineTexts({
  en: {
    title: 'About Sextant',
    intro: 'Self-hosted code coverage and test quality: how much of the code you changed your tests really ran.',
    version: 'Version',
    edition: 'Edition',
    commit: 'Build commit',
    unknown: 'unknown',
    database: 'Database',
    embedded: 'Embedded PostgreSQL (PGlite)',
    server: 'PostgreSQL server',
    docs: 'API documentation',
  },
  zh: {
    title: '关于 Sextant',
    intro: '自托管的代码覆盖率与测试质量平台：你改动的代码，测试真正运行了多少。',
    version: '版本',
    edition: '许可证版本',
    commit: '构建提交',
    unknown: '未知',
    database: '数据库',
    embedded: '内嵌 PostgreSQL（PGlite）',
    server: 'PostgreSQL 服务器',
    docs: 'API 文档',
  },
});
