/** The exact commands an app's team runs to feed Sextant (issue 7 onboarding). */
export type OnboardingCommands = { ci: string; agent: string; jacocoAgent: string; otlp: string };

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

export function onboardingCommands(input: {
  server: string;
  app: string;
  ciEnv?: string;
  testEnv?: string;
}): OnboardingCommands {
  const app = quote(input.app);
  const ciEnv = quote(input.ciEnv ?? 'ci');
  const testEnv = quote(input.testEnv ?? 'test');
  return {
    ci: [
      'npx sextant upload coverage/lcov.info',
      `  --server ${input.server} --token "$SEXTANT_TOKEN"`,
      `  --app ${app} --commit "$(git rev-parse HEAD)" --env ${ciEnv} --test-type 1`,
    ].join(' \\\n'),
    agent: [
      'npx sextant agent',
      `  --server ${input.server} --token "$SEXTANT_TOKEN"`,
      `  --app ${app} --env ${testEnv} --watch 'build/coverage/**/*.xml' --interval 30s`,
    ].join(' \\\n'),
    jacocoAgent: [
      'npx sextant agent',
      `  --server ${input.server} --token "$SEXTANT_TOKEN"`,
      `  --app ${app} --env ${testEnv} --jacoco 127.0.0.1:6300 --classes build/libs/app.jar --interval 1m`,
    ].join(' \\\n'),
    otlp: [
      `export OTEL_EXPORTER_OTLP_ENDPOINT=${input.server}`,
      'export OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer $SEXTANT_TOKEN"',
      `export OTEL_SERVICE_NAME=${app}`,
    ].join('\n'),
  };
}
