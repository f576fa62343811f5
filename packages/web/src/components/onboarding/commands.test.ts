import { describe, expect, it } from 'vitest';
import { onboardingCommands } from './commands.ts';

describe('onboarding commands', () => {
  it('names the server, the app and its environments', () => {
    const c = onboardingCommands({ server: 'https://sx.example', app: 'shop-api', ciEnv: 'dev', testEnv: 'qa' });
    expect(c.ci).toContain('--server https://sx.example');
    expect(c.ci).toContain('--app shop-api');
    expect(c.ci).toContain('--env dev --test-type 1');
    expect(c.agent).toContain('--env qa');
    expect(c.jacocoAgent).toContain('--app shop-api --env qa --jacoco 127.0.0.1:6300 --classes ');
    expect(c.otlp).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=https://sx.example');
    expect(c.otlp).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf');
    expect(c.otlp).toContain('OTEL_EXPORTER_OTLP_PROTOCOL=grpc OTEL_EXPORTER_OTLP_ENDPOINT=https://sx.example:4317');
    expect(onboardingCommands({ server: 'http://10.0.0.5:8080', app: 'a' }).otlp).toContain(
      'OTEL_EXPORTER_OTLP_ENDPOINT=http://10.0.0.5:4317',
    );
  });

  it('quotes an app name the shell would split or expand', () => {
    const c = onboardingCommands({ server: 'http://h', app: "it's $HOME" });
    expect(c.ci).toContain(`--app 'it'"'"'s $HOME'`);
  });
});
