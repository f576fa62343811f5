import { defineTexts } from '../../lib/i18n.tsx';

export const settingTexts = defineTexts({
  en: {
    title: 'System settings',
    saved: 'Settings saved.',
    excellentGrade: 'Excellent grade (fraction, green at or above)',
    passingGrade: 'Passing grade (fraction, yellow at or above)',
    edition: 'Licence edition',
    history: 'Message history per report',
    warnThreshold: 'Trace warning threshold (seconds)',
    seriousThreshold: 'Trace serious threshold (seconds)',
    zentaoUrl: 'ZenTao URL',
    traceViewerUrl: 'Trace viewer URL (empty: this host, on the server’s SEXTANT_TRACE_VIEWER_PORT, 5173 unless set)',
    showJudgment: 'Show quality-gate judgment',
    save: 'Save settings',
    adminsOnly: 'Only administrators can change these.',
  },
  zh: {
    title: '系统设置',
    saved: '设置已保存。',
    excellentGrade: '优秀线（小数，达到或高于此值显示绿色）',
    passingGrade: '及格线（小数，达到或高于此值显示黄色）',
    edition: '许可证版本',
    history: '每个报告保留的消息条数',
    warnThreshold: '链路警告阈值（秒）',
    seriousThreshold: '链路严重阈值（秒）',
    zentaoUrl: '禅道地址',
    traceViewerUrl: '链路查看器地址（留空：本主机上服务器 SEXTANT_TRACE_VIEWER_PORT 指定的端口，未设置时为 5173）',
    showJudgment: '显示质量门禁结论',
    save: '保存设置',
    adminsOnly: '只有管理员可以修改这些设置。',
  },
});
