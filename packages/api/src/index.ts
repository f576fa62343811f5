export * from './abilities.ts';
export * from './auth.ts';
export * from './envelope.ts';
export * from './messages.ts';
export * from './paths.ts';
export * from './roles.ts';
export * from './screens.ts';
export * from './settings.ts';
