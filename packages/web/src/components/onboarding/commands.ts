/** The exact commands an app's team runs to feed Sextant (issue 7 onboarding). */
export type OnboardingCommands = { ci: string; agent: string; jacocoAgent: string; otlp: string };

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** OTLP/gRPC's own port on the server's host (SEXTANT_OTLP_GRPC_PORT, 4317 by default). */
function grpcEndpoint(server: string): string {
  try {
    const url = new URL(server);
    return `${url.protocol}//${url.host.replace(/:\d+$/, '')}:4317`;
  } catch {
    return 'http://<server>:4317';
  }
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
      `export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`,
      `export OTEL_EXPORTER_OTLP_ENDPOINT=${input.server}`,
      'export OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer $SEXTANT_TOKEN"',
      `export OTEL_SERVICE_NAME=${app}`,
      `# gRPC instead: OTEL_EXPORTER_OTLP_PROTOCOL=grpc OTEL_EXPORTER_OTLP_ENDPOINT=${grpcEndpoint(input.server)}`,
    ].join('\n'),
  };
}
