import { describe, expect, it } from 'vitest';
import { RejectRequestSchema } from './applications.ts';
import { LoginRequestSchema, PasswordChangeSchema, RegisterRequestSchema } from './auth.ts';
import { PublishMessageRequestSchema } from './messages.ts';
import { CreateReportSchema, ReportDetailsQuerySchema, SearchReportsSchema, UploadMetaSchema } from './reports.ts';
import { RoleInputSchema } from './roles.ts';

type Schema = { safeParse: (v: unknown) => { success: boolean } };
const accepts = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
const refuses = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);

describe('report calls (specification point 7)', () => {
  it('searchReports: defaults of point 9, known sorts only, bounded pages', () => {
    expect(SearchReportsSchema.parse({})).toEqual({
      testType: 1,
      perPage: 10,
      page: 1,
      sortBy: 'lineCoverage',
      sortDesc: false,
    });
    expect(SearchReportsSchema.parse({ sortDesc: 'true', perPage: '20' })).toMatchObject({
      sortDesc: true,
      perPage: 20,
    });
    refuses(SearchReportsSchema, { sortBy: 'password' });
    refuses(SearchReportsSchema, { perPage: 201 });
    refuses(SearchReportsSchema, { page: 0 });
    refuses(SearchReportsSchema, { testType: 3 });
  });

  it('getReportDetails: needs a report id, sorts by known columns only', () => {
    refuses(ReportDetailsQuerySchema, {});
    refuses(ReportDetailsQuerySchema, { reportId: 'x', sortBy: 'password' });
  });

  it('a new report: an app, two safe refs, an environment, and nothing else', () => {
    const report = {
      app: 'checkout',
      name: 'release 2',
      baseVersion: 'v1',
      newVersion: 'v2',
      envType: 'test',
      testType: 1,
      coverageType: 'full',
    };
    accepts(CreateReportSchema, report);
    refuses(CreateReportSchema, { ...report, newVersion: '--output=/etc/passwd' });
    refuses(CreateReportSchema, { ...report, envType: 'Prod Env' });
    refuses(CreateReportSchema, { ...report, coverageType: 'partial' });
    refuses(CreateReportSchema, { ...report, status: 'SUCCESS' });
  });

  it('an upload names its app, commit, environment and a known format', () => {
    const upload = { app: 'checkout', commit: 'abc123', envType: 'test', testType: '1' };
    expect(UploadMetaSchema.parse(upload)).toMatchObject({ format: 'auto', testType: 1 });
    refuses(UploadMetaSchema, { ...upload, format: 'exe' });
    refuses(UploadMetaSchema, { ...upload, commit: '-x' });
  });
});

describe('accounts, roles and messages', () => {
  it('sign-in and sign-up fields', () => {
    accepts(LoginRequestSchema, { username: 'admin', password: 'x' });
    refuses(LoginRequestSchema, { username: '  ', password: 'x' });
    accepts(RegisterRequestSchema, { username: 'bea', email: 'bea@example.test' });
    refuses(RegisterRequestSchema, { username: 'bea', email: 'not an email' });
    refuses(PasswordChangeSchema, { currentPassword: 'old', newPassword: 'short' });
    refuses(RejectRequestSchema, { reason: '   ' });
  });

  it('a role: a plain name, known abilities, nothing else', () => {
    const role = { name: 'QA lead', ability: [{ action: 'read', resource: 'Report' }], resourceNums: {} };
    accepts(RoleInputSchema, role);
    refuses(RoleInputSchema, { ...role, name: '<b>admin</b>' });
    refuses(RoleInputSchema, { ...role, ability: [{ action: 'own', resource: 'Report' }] });
    refuses(RoleInputSchema, { ...role, builtin: true });
  });

  it('a published message carries a known report status or none', () => {
    expect(PublishMessageRequestSchema.parse({ report_id: 'r1', status: 'CLONING' })).toMatchObject({
      message_type: 'REPORT_PROGRESS',
      title: '',
    });
    accepts(PublishMessageRequestSchema, { report_id: 'r1', status: 'HEART_BEAT_DONE' });
    refuses(PublishMessageRequestSchema, { report_id: 'r1', status: 'DONE' });
  });
});
