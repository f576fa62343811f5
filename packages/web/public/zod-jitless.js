// Loaded before the app's modules (index.html): zod then never compiles parsers through `Function`
// nor probes `Function('')` while its schemas are built, which the page's Content-Security-Policy
// (no evaluated script, Trusted Types) reports as a violation. A classic script, so that it runs
// before any module chunk, whichever chunk the bundler puts zod and the schemas in.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
