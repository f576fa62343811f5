import { describe, expect, it } from 'vitest';
import { PATHS, pathTo } from './paths.ts';

describe('the path table', () => {
  it('holds each path once, every one under /api but the message socket, OTLP/HTTP and the probes', () => {
    const values = Object.values(PATHS);
    expect(new Set(values).size).toBe(values.length);
    // OTLP/HTTP's path is the one OpenTelemetry exporters post to (`<endpoint>/v1/traces`); /healthz,
    // /readyz and /metrics are where process managers and load balancers look by convention
    expect(values.filter((path) => !path.startsWith('/api/')).sort()).toEqual([
      PATHS.healthz,
      PATHS.metrics,
      PATHS.readyz,
      PATHS.otlpTraces,
      PATHS.ws,
    ]);
  });

  it("keeps the specification's report calls spelled as point 7 writes them", () => {
    expect([PATHS.searchReports, PATHS.getReport, PATHS.getReportDetails]).toEqual([
      '/api/searchReports',
      '/api/getReport',
      '/api/getReportDetails',
    ]);
  });

  it('fills a pattern in, encoding each value so it stays one path segment', () => {
    expect(pathTo(PATHS.team, { id: 'a/b?c' })).toBe('/api/teams/a%2Fb%3Fc');
    expect(pathTo(PATHS.appAgents, { id: '42' })).toBe('/api/apps/42/agents');
    expect(pathTo(PATHS.teams, {})).toBe('/api/teams');
  });

  it('refuses a pattern whose parameter is missing', () => {
    expect(() => pathTo(PATHS.team, {} as { id: string })).toThrow(':id');
  });
});
