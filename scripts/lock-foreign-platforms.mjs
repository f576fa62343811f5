#!/usr/bin/env node
// The npm registry this project is built against carries Biome's Linux binaries only, so
// `npm install` leaves the other platforms' optional packages out of package-lock.json and
// `npm ci` then refuses the lock. This writes those entries (never installed on Linux: their
// os/cpu/libc do not match) so the lock is complete. Run it after `npm install` changes Biome.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const biome = lock.packages['node_modules/@biomejs/biome'];
const PLATFORMS = {
  'cli-win32-x64': { os: ['win32'], cpu: ['x64'] },
  'cli-win32-arm64': { os: ['win32'], cpu: ['arm64'] },
  'cli-darwin-x64': { os: ['darwin'], cpu: ['x64'] },
  'cli-darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'cli-linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'cli-linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'cli-android-x64': { os: ['android'], cpu: ['x64'] },
  'cli-android-arm64': { os: ['android'], cpu: ['arm64'] },
};
let added = 0;
for (const [name, platform] of Object.entries(PLATFORMS)) {
  const key = `node_modules/@biomejs/${name}`;
  if (lock.packages[key] || !biome?.optionalDependencies?.[`@biomejs/${name}`]) continue;
  lock.packages[key] = {
    version: biome.version,
    ...platform,
    dev: true,
    license: 'MIT OR Apache-2.0',
    optional: true,
    engines: { node: '>=14.21.3' },
  };
  added += 1;
}
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock: ${added} foreign-platform Biome entries written`);
