import { describe, expect, it } from 'vitest';
import { Broker, type Delivery } from './broker.ts';

const text = new TextEncoder();
const delivery = (seq: number, prev: number | null): Delivery => ({
  destination: '/all/messages',
  body: text.encode(String(seq)),
  headers: {},
  audience: 'everyone',
  stream: { key: 'report-1', seq, prev },
});

function subscribed(broker: Broker) {
  const seen: string[] = [];
  broker.subscribe(
    '/all/messages',
    { userId: 'u', mayReceive: () => true, deliver: (_id, d) => seen.push(new TextDecoder().decode(d.body)) },
    's',
  );
  return seen;
}

describe("the broker's ordered streams (a report's messages)", () => {
  it('reads back a stored message the publisher never sent, before the next one, and drops repeats', async () => {
    const broker = new Broker();
    const asked: [string, number, number][] = [];
    broker.catchUpWith(async (key, after, before) => {
      asked.push([key, after, before]);
      return [delivery(2, 1)];
    });
    const seen = subscribed(broker);
    await broker.publish(delivery(1, null));
    await broker.publish(delivery(3, 2));
    await broker.publish(delivery(4, 3));
    await broker.publish(delivery(2, 1));
    await broker.publish(delivery(5, 4));
    // Delivery after a gap waits for the store's answer; the next message of the stream waits behind it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['1', '2', '3', '4', '5']);
    expect(asked).toEqual([['report-1', 1, 3]]);
  });

  it('delivers a stream it joins mid-way as it comes, and at once when nothing is missing', async () => {
    const broker = new Broker();
    broker.catchUpWith(async () => {
      throw new Error('not asked');
    });
    const seen = subscribed(broker);
    await broker.publish(delivery(7, 6));
    expect(seen).toEqual(['7']);
    await broker.publish(delivery(9, 7));
    expect(seen).toEqual(['7', '9']);
  });
});
