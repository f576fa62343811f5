import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { missingRedis, skipWithout } from '../../../../tools/test-support/machine.ts';
import {
  type Audience,
  BROADCAST_DESTINATION,
  Broker,
  type Delivery,
  type FanOut,
  USER_DESTINATION,
} from './broker.ts';
import { createRedisFanOut } from './fanout-redis.ts';

// Two brokers stand for two server instances sharing the real Redis of this machine.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const noRedis = skipWithout('Redis fan-out between instances', await missingRedis(REDIS_URL));
const channel = `sextant:test:${randomUUID()}`;
const fanOuts: FanOut[] = [];

afterAll(async () => {
  await Promise.all(fanOuts.map((f) => f.close()));
});

async function instance(): Promise<Broker> {
  const fanOut = await createRedisFanOut(REDIS_URL, channel);
  fanOuts.push(fanOut);
  return new Broker(fanOut);
}

/** `readsTeam`: the one team whose report messages this subscriber may read (all, when left out). */
function collector(userId: string, readsTeam?: string) {
  const got: Delivery[] = [];
  let notify: () => void = () => {};
  return {
    got,
    next: () => new Promise<void>((resolve) => (notify = resolve)),
    subscriber: {
      userId,
      mayReceive: (audience: Audience) =>
        readsTeam === undefined || audience === 'everyone' || audience.reportsOfTeam === readsTeam,
      deliver: (_id: string, d: Delivery) => {
        got.push(d);
        notify();
      },
    },
  };
}

describe.skipIf(noRedis)('Redis fan-out between instances', () => {
  it('delivers a message published on instance A to subscribers on A and B, once each', async () => {
    const [a, b] = [await instance(), await instance()];
    const onA = collector('alice');
    const onB = collector('bob');
    a.subscribe(BROADCAST_DESTINATION, onA.subscriber, 's1');
    b.subscribe(BROADCAST_DESTINATION, onB.subscriber, 's1');
    const arrived = Promise.all([onA.next(), onB.next()]);
    await a.publish({
      destination: BROADCAST_DESTINATION,
      body: new Uint8Array([0, 1, 255]),
      headers: { 'content-type': 'x' },
      audience: 'everyone',
    });
    await arrived;
    expect(onB.got.map((d) => [...d.body])).toEqual([[0, 1, 255]]);
    expect(onA.got).toHaveLength(1);
    expect(onB.got[0]?.headers['content-type']).toBe('x');
  });

  it("keeps a user's queue message to that user on every instance", async () => {
    const [a, b] = [await instance(), await instance()];
    const aliceOnB = collector('alice');
    const bobOnB = collector('bob');
    b.subscribe(USER_DESTINATION, aliceOnB.subscriber, 'q');
    b.subscribe(USER_DESTINATION, bobOnB.subscriber, 'q');
    const arrived = aliceOnB.next();
    await a.publish({
      destination: USER_DESTINATION,
      userId: 'alice',
      body: new TextEncoder().encode('hi'),
      headers: {},
      audience: 'everyone',
    });
    await arrived;
    // a broadcast published after the user message arrives after it too (one channel, in order)
    const sync = collector('bob');
    b.subscribe(BROADCAST_DESTINATION, sync.subscriber, 'sync');
    const synced = sync.next();
    await a.publish({ destination: BROADCAST_DESTINATION, body: new Uint8Array(), headers: {}, audience: 'everyone' });
    await synced;
    expect(aliceOnB.got).toHaveLength(1);
    expect(bobOnB.got).toEqual([]);
  });

  it("checks each subscriber's rights on the instance that delivers, against the message's audience", async () => {
    const [a, b] = [await instance(), await instance()];
    const shopOnB = collector('dev', 'team-shop');
    const billingOnB = collector('other', 'team-billing');
    b.subscribe(BROADCAST_DESTINATION, shopOnB.subscriber, 's');
    b.subscribe(BROADCAST_DESTINATION, billingOnB.subscriber, 's');
    const text = (d: Delivery) => new TextDecoder().decode(d.body);
    const arrived = billingOnB.next();
    await a.publish({
      destination: BROADCAST_DESTINATION,
      body: new TextEncoder().encode('billing build output'),
      headers: {},
      audience: { reportsOfTeam: 'team-billing' },
    });
    await arrived;
    const marker = shopOnB.next();
    await a.publish({
      destination: BROADCAST_DESTINATION,
      body: new TextEncoder().encode('notice'),
      headers: {},
      audience: 'everyone',
    });
    await marker;
    expect(billingOnB.got.map(text)).toEqual(['billing build output', 'notice']);
    expect(shopOnB.got.map(text)).toEqual(['notice']);
  });
});
