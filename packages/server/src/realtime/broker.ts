import { CONNECTION_TEST_MESSAGE } from '@sextant/api';
import type { StompFrame } from './stomp/frame.ts';

/** Broadcast to every signed-in user who may read the message (specification point 7). */
export const BROADCAST_DESTINATION = '/all/messages';
/** One user's own notifications. */
export const USER_DESTINATION = '/user/queue/messages';
export const DESTINATIONS: ReadonlySet<string> = new Set([BROADCAST_DESTINATION, USER_DESTINATION]);

/**
 * Who may receive a message: every signed-in user (an administrator's notice), or those who may read
 * the reports of one team's apps (report progress, build output, heart-beats). `teamId` null is a
 * report no team owns: only readers of every team's reports receive it.
 */
export type Audience = 'everyone' | { reportsOfTeam: string | null };

export type Delivery = {
  destination: string;
  body: Uint8Array;
  headers: Record<string, string>;
  audience: Audience;
  /**
   * Its place in an ordered stream (a report's messages): `seq` of this message, `prev` of the one the
   * publisher stored before it. A receiver that delivered an earlier one and sees `prev` beyond it
   * fetches what it missed first (`CatchUp`); a `seq` it already delivered is dropped.
   */
  stream?: { key: string; seq: number; prev: number | null };
};

/** The stored deliveries of stream `key` after `after` and before `before`, oldest first. */
export type CatchUp = (key: string, after: number, before: number, like: Delivery) => Promise<Delivery[]>;

/** Streams whose last delivered message is remembered (the oldest is forgotten beyond this). */
const REMEMBERED_STREAMS = 10_000;

/** What the broker needs of a connected session. */
export type Subscriber = {
  userId: string;
  /** The subscriber's current rights, checked on the instance that delivers (issue 32, finding 5). */
  mayReceive(audience: Audience): boolean;
  deliver(subscriptionId: string, delivery: Delivery): void;
};

type Subscription = { subscriber: Subscriber; id: string };

/** Crosses server instances (Redis pub/sub when configured); the local broker is always the last hop. */
export type FanOut = {
  publish(delivery: Delivery & { userId?: string }): Promise<void>;
  onDelivery(handler: (delivery: Delivery & { userId?: string }) => void): void;
  close(): Promise<void>;
  /** Answers when the shared channel is reachable (readiness); throws otherwise. */
  ping(): Promise<void>;
};

/**
 * Routes messages to local subscriptions, each only to subscribers whose rights admit its audience.
 * `/user/queue/messages` is scoped further: a message for a user reaches only that user's subscriptions.
 */
export class Broker {
  private readonly byDestination = new Map<string, Set<Subscription>>();
  private readonly streams = new Map<string, { last: number; pending: Promise<void> | null }>();
  private catchUp: CatchUp | null = null;

  constructor(private readonly fanOut?: FanOut) {
    fanOut?.onDelivery((delivery) => this.receive(delivery));
  }

  /**
   * Fills gaps in ordered streams. A message stored by a process that died before publishing it (a
   * worker killed mid-report) is read back from the store and delivered before the next one of its
   * stream, so subscribers see every stored message once, in order.
   */
  catchUpWith(catchUp: CatchUp): void {
    this.catchUp = catchUp;
  }

  subscribe(destination: string, subscriber: Subscriber, id: string): () => void {
    const subscription = { subscriber, id };
    let set = this.byDestination.get(destination);
    if (!set) {
      set = new Set();
      this.byDestination.set(destination, set);
    }
    set.add(subscription);
    return () => set.delete(subscription);
  }

  /** Publishes everywhere: through the fan-out when there is one (it echoes back here), else locally. */
  async publish(delivery: Delivery & { userId?: string }): Promise<void> {
    if (this.fanOut) await this.fanOut.publish(delivery);
    else this.receive(delivery);
  }

  subscriberCount(destination: string): number {
    return this.byDestination.get(destination)?.size ?? 0;
  }

  /** Delivers at once unless a stream has a gap (or a catch-up in progress): then in order, after it. */
  private receive(delivery: Delivery & { userId?: string }): void {
    const { stream } = delivery;
    const catchUp = this.catchUp;
    if (!stream || !catchUp) {
      this.deliverLocally(delivery);
      return;
    }
    const state = this.streams.get(stream.key);
    if (!state) {
      this.remember(stream.key, { last: stream.seq, pending: null });
      this.deliverLocally(delivery);
      return;
    }
    const gap = stream.prev !== null && stream.prev > state.last;
    if (!gap && !state.pending) {
      if (stream.seq <= state.last) return; // delivered already
      state.last = stream.seq;
      this.remember(stream.key, state);
      this.deliverLocally(delivery);
      return;
    }
    const after = (state.pending ?? Promise.resolve()).then(async () => {
      if (stream.seq <= state.last) return;
      if (stream.prev !== null && stream.prev > state.last) {
        const missed = await catchUp(stream.key, state.last, stream.seq, delivery).catch(() => []);
        for (const earlier of missed) this.deliverLocally(earlier);
      }
      state.last = stream.seq;
      this.deliverLocally(delivery);
    });
    state.pending = after;
    void after.finally(() => {
      if (state.pending === after) state.pending = null;
    });
  }

  private remember(key: string, state: { last: number; pending: Promise<void> | null }): void {
    this.streams.delete(key);
    this.streams.set(key, state);
    if (this.streams.size > REMEMBERED_STREAMS) {
      const oldest = this.streams.keys().next().value;
      if (oldest !== undefined) this.streams.delete(oldest);
    }
  }

  private deliverLocally(delivery: Delivery & { userId?: string }): void {
    const set = this.byDestination.get(delivery.destination);
    if (!set) return;
    for (const { subscriber, id } of set) {
      if (delivery.userId !== undefined && subscriber.userId !== delivery.userId) continue;
      if (!subscriber.mayReceive(delivery.audience)) continue;
      subscriber.deliver(id, delivery);
    }
  }
}

/** A wire value read back as an audience; anything unrecognised admits only readers of every team. */
export function audienceFrom(value: unknown): Audience {
  if (value === 'everyone') return 'everyone';
  if (value && typeof value === 'object' && 'reportsOfTeam' in value) {
    const team = (value as { reportsOfTeam: unknown }).reportsOfTeam;
    return { reportsOfTeam: typeof team === 'string' ? team : null };
  }
  return { reportsOfTeam: null };
}

export function isConnectionTest(frame: StompFrame): boolean {
  try {
    const body = JSON.parse(new TextDecoder().decode(frame.body)) as { message_type?: unknown };
    return body.message_type === CONNECTION_TEST_MESSAGE.message_type;
  } catch {
    return false;
  }
}
