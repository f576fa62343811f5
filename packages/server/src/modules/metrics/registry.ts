import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The instruments of one server process, in a registry of its own (tests build several apps in one process). */
export class Instruments {
  readonly registry = new Registry();
  readonly requestSeconds = new Histogram({
    name: 'sextant_http_request_duration_seconds',
    help: 'API request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly stompConnections = new Gauge({
    name: 'sextant_stomp_connections',
    help: 'Open /ws (STOMP) sockets on this process',
    registers: [this.registry],
  });
  readonly stompConnectionsTotal = new Counter({
    name: 'sextant_stomp_connections_total',
    help: '/ws sockets opened since the process started',
    registers: [this.registry],
  });

  constructor(queueDepth: () => Promise<number>) {
    collectDefaultMetrics({ register: this.registry, prefix: 'sextant_' });
    new Gauge({
      name: 'sextant_report_queue_depth',
      help: 'Report jobs waiting for a worker (created or to be retried)',
      registers: [this.registry],
      async collect() {
        this.set(await queueDepth());
      },
    });
  }
}
