import type { FastifyInstance } from 'fastify';
import type { AuditService } from '../audit/service.ts';
import type { Principals } from '../auth/principals.ts';
import { type AboutFacts, aboutRoutes } from './about.ts';
import { SettingsRepository } from './repository.ts';
import { settingsRoutes } from './routes.ts';
import { SettingsService } from './service.ts';

export function registerSettings(
  app: FastifyInstance,
  deps: { audit: AuditService; principals: Principals; about: AboutFacts },
): void {
  settingsRoutes(app, new SettingsService(new SettingsRepository(), deps.audit, deps.principals));
  aboutRoutes(app, deps.about, deps.principals);
}
