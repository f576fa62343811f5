import { Redis } from 'ioredis';
import { audienceFrom, type Delivery, type FanOut } from './broker.ts';

type Wire = {
  destination: string;
  userId?: string;
  headers: Record<string, string>;
  body: string;
  audience?: unknown;
  stream?: { key: string; seq: number; prev: number | null };
};

/**
 * Shares published messages between server instances over Redis pub/sub (REDIS_URL).
 * Every instance, the publisher included, delivers what comes back on the channel, so a
 * message is delivered exactly once per instance.
 */
export async function createRedisFanOut(url: string, channel = 'sextant:messages'): Promise<FanOut> {
  const publisher = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(channel);
  const handlers: ((delivery: Delivery & { userId?: string }) => void)[] = [];
  subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
    let wire: Wire;
    try {
      wire = JSON.parse(message.toString('utf8')) as Wire;
    } catch {
      return; // not ours: another writer on the channel
    }
    const delivery = {
      destination: wire.destination,
      headers: wire.headers,
      body: new Uint8Array(Buffer.from(wire.body, 'base64')),
      // Rights are checked where the message is delivered, against the audience it was published for.
      audience: audienceFrom(wire.audience),
      ...(wire.userId === undefined ? {} : { userId: wire.userId }),
      ...(streamOf(wire.stream) ?? {}),
    };
    for (const handler of handlers) handler(delivery);
  });
  return {
    async publish(delivery) {
      const wire: Wire = {
        destination: delivery.destination,
        headers: delivery.headers,
        body: Buffer.from(delivery.body).toString('base64'),
        audience: delivery.audience,
        ...(delivery.userId === undefined ? {} : { userId: delivery.userId }),
        ...(delivery.stream ? { stream: delivery.stream } : {}),
      };
      await publisher.publish(channel, JSON.stringify(wire));
    },
    onDelivery(handler) {
      handlers.push(handler);
    },
    async close() {
      await Promise.all([publisher.quit(), subscriber.quit()]);
    },
    async ping() {
      await publisher.ping();
    },
  };
}

/** A wire value read back as a stream position; anything malformed is left out (delivered as is). */
function streamOf(value: unknown): { stream: { key: string; seq: number; prev: number | null } } | null {
  if (!value || typeof value !== 'object') return null;
  const { key, seq, prev } = value as Record<string, unknown>;
  if (typeof key !== 'string' || typeof seq !== 'number' || !(prev === null || typeof prev === 'number')) return null;
  return { stream: { key, seq, prev } };
}
