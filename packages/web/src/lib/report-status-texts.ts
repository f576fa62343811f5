import { defineTexts, useTexts } from './i18n.tsx';

/**
 * Names of the report pipeline's statuses (specification point 4), shared by the report screens,
 * the notifications and the progress feed.
 */
export const reportStatusTexts = defineTexts({
  en: {
    QUEUED: 'Queued',
    CLONING: 'Cloning the repository',
    COMPILING: 'Compiling',
    DIFF_METHODS: 'Diffing methods',
    ADDING_MODULE: 'Mapping modules',
    ENV_REPORT: 'Gathering coverage',
    GENERATING_REPORT: 'Generating the report',
    SUCCESS: 'Ready',
    CLONE_FAIL: 'Clone failed',
    COMPILE_FAIL: 'Compile failed',
    DIFF_METHOD_FAIL: 'Method diff failed',
    FAILADDMODULE: 'Module mapping failed',
    ENVREPORT_FAIL: 'Gathering coverage failed',
    GENERATEREPORT_FAIL: 'Report generation failed',
    HEART_BEAT_DONE: 'Heart-beat',
    HEART_BEAT_ERROR: 'Heart-beat error',
  },
  zh: {
    QUEUED: '排队中',
    CLONING: '克隆代码中',
    COMPILING: '编译中',
    DIFF_METHODS: '方法比对中',
    ADDING_MODULE: '模块映射中',
    ENV_REPORT: '收集覆盖率中',
    GENERATING_REPORT: '生成报告中',
    SUCCESS: '成功',
    CLONE_FAIL: '克隆失败',
    COMPILE_FAIL: '编译失败',
    DIFF_METHOD_FAIL: '方法比对失败',
    FAILADDMODULE: '模块映射失败',
    ENVREPORT_FAIL: '覆盖率收集失败',
    GENERATEREPORT_FAIL: '报告生成失败',
    HEART_BEAT_DONE: '心跳正常',
    HEART_BEAT_ERROR: '心跳异常',
  },
});

/** The label of a status in the current language; an unknown status stays as it is. */
export function useStatusLabel(): (status: string) => string {
  const labels: Record<string, string> = useTexts(reportStatusTexts);
  return (status) => labels[status] ?? status;
}
