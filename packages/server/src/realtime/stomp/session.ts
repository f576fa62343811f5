import { type Audience, BROADCAST_DESTINATION, DESTINATIONS, type Delivery, isConnectionTest } from '../broker.ts';
import { frame, header, type StompFrame } from './frame.ts';
import { DEFAULT_LIMITS, encodeFrame, FrameDecoder, HEARTBEAT, StompProtocolError } from './frame-codec.ts';

import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PRE_CONNECT_MAX_BYTES,
  DEFAULT_RECHECK_MS,
  negotiateHeartbeat,
  type Principal,
  type SessionOptions,
  type Transport,
} from './session-options.ts';

export type { Principal, SessionOptions, Transport } from './session-options.ts';

/** Missing heart-beats are tolerated this many intervals before the client is dropped. */
const HEARTBEAT_TOLERANCE = 2;

/** One client connection's STOMP 1.2 state machine, independent of the socket library. */
export class StompSession {
  private readonly decoder: FrameDecoder;
  private principal: Principal | null = null;
  private connecting = false;
  private closed = false;
  private readonly subscriptions = new Map<string, { destination: string; unsubscribe: () => void }>();
  private messageCounter = 0;
  private lastReceived = Date.now();
  private timers: NodeJS.Timeout[] = [];
  private queue: Promise<void> = Promise.resolve();
  private bytesBeforeConnect = 0;
  private rechecking = false;

  constructor(
    private readonly transport: Transport,
    private readonly options: SessionOptions,
  ) {
    this.decoder = new FrameDecoder('server', options.limits ?? DEFAULT_LIMITS);
    // An unauthenticated socket costs memory and a file descriptor: it gets a short time to sign in.
    const timeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.timers.push(
      setTimeout(() => {
        if (!this.principal) this.fail(`no CONNECT within ${timeout} ms`);
      }, timeout),
    );
  }

  get userId(): string | null {
    return this.principal?.userId ?? null;
  }

  /** Feeds bytes from the socket. Frames are handled one after another, in order. */
  receive(chunk: Uint8Array): void {
    if (this.closed) return;
    this.lastReceived = Date.now();
    if (!this.principal) {
      this.bytesBeforeConnect += chunk.length;
      const limit = this.options.preConnectMaxBytes ?? DEFAULT_PRE_CONNECT_MAX_BYTES;
      if (this.bytesBeforeConnect > limit) {
        this.fail(`more than ${limit} bytes before CONNECT`);
        return;
      }
    }
    let frames: StompFrame[];
    try {
      frames = this.decoder.push(chunk).frames;
    } catch (error) {
      this.fail(error instanceof StompProtocolError ? error.message : 'malformed frame');
      return;
    }
    for (const f of frames) this.queue = this.queue.then(() => this.handle(f));
  }

  /** The server ends the session (it is shutting down): an ERROR frame saying why, then the socket closes. */
  end(reason: string): void {
    this.fail(reason);
  }

  /** The socket closed: drop every subscription and timer. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const { unsubscribe } of this.subscriptions.values()) unsubscribe();
    this.subscriptions.clear();
  }

  private async handle(f: StompFrame): Promise<void> {
    if (this.closed) return;
    if (f.command === 'CONNECT' || f.command === 'STOMP') return this.connect(f);
    if (!this.principal) {
      this.fail('not connected: send CONNECT with an access token first', f);
      return;
    }
    switch (f.command) {
      case 'SUBSCRIBE':
        this.subscribe(f);
        return;
      case 'UNSUBSCRIBE':
        this.unsubscribe(f);
        return;
      case 'SEND':
        this.send(f);
        return;
      case 'DISCONNECT':
        this.receipt(f);
        this.transport.close();
        this.dispose();
        return;
      case 'ACK':
      case 'NACK':
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        // Messages are fire-and-forget notifications; acknowledgements and transactions carry no state here.
        this.receipt(f);
        return;
      default:
        this.fail(`unsupported command ${f.command}`, f);
        return;
    }
  }

  private async connect(f: StompFrame): Promise<void> {
    if (this.principal || this.connecting) {
      this.fail('already connected', f);
      return;
    }
    const versions = (header(f, 'accept-version') ?? '1.0').split(',');
    if (!versions.includes('1.2')) {
      this.fail('this server speaks STOMP 1.2 only', f);
      return;
    }
    const bearer = header(f, 'Authorization') ?? header(f, 'authorization');
    const token = bearer?.replace(/^Bearer\s+/i, '') ?? header(f, 'passcode') ?? '';
    this.connecting = true;
    const principal = token ? await this.options.authenticate(token) : null;
    this.connecting = false;
    if (this.closed) return;
    if (!principal) {
      this.fail('a valid access token is required (Authorization: Bearer … or passcode)', f);
      return;
    }
    this.principal = principal;
    const recheckMs = this.options.recheckMs ?? DEFAULT_RECHECK_MS;
    this.timers.push(setInterval(() => void this.recheck(), recheckMs));
    const heartbeat = this.negotiateHeartbeat(header(f, 'heart-beat'));
    this.write(
      frame('CONNECTED', { version: '1.2', 'heart-beat': heartbeat, server: 'sextant', session: principal.userId }),
    );
  }

  private negotiateHeartbeat(offered: string | undefined): string {
    const { outgoing, incoming } = negotiateHeartbeat(offered, this.options.heartbeat ?? { sendMs: 0, expectMs: 0 });
    if (outgoing > 0) this.timers.push(setInterval(() => this.transport.send(HEARTBEAT), outgoing));
    if (incoming > 0) {
      this.timers.push(
        setInterval(() => {
          if (Date.now() - this.lastReceived > incoming * HEARTBEAT_TOLERANCE) {
            this.transport.close();
            this.dispose();
          }
        }, incoming),
      );
    }
    return `${outgoing},${incoming}`;
  }

  private subscribe(f: StompFrame): void {
    const id = header(f, 'id');
    const destination = header(f, 'destination');
    if (!id || !destination) {
      this.fail('SUBSCRIBE needs id and destination headers', f);
      return;
    }
    if (this.subscriptions.has(id)) {
      this.fail(`subscription id ${id} is already in use`, f);
      return;
    }
    const max = this.options.maxSubscriptions ?? 32;
    if (this.subscriptions.size >= max) {
      this.fail(`at most ${max} subscriptions per connection`, f);
      return;
    }
    if (!DESTINATIONS.has(destination) || !this.principal?.mayRead(destination)) {
      this.fail(`you may not subscribe to ${destination}`, f);
      return;
    }
    const principal = this.principal;
    const subscriber = {
      userId: principal.userId,
      mayReceive: (audience: Audience) => !this.closed && principal.mayReceive(audience),
      deliver: (sid: string, d: Delivery) => this.deliver(sid, d),
    };
    this.subscriptions.set(id, {
      destination,
      unsubscribe: this.options.broker.subscribe(destination, subscriber, id),
    });
    this.receipt(f);
  }

  private unsubscribe(f: StompFrame): void {
    const id = header(f, 'id');
    const subscription = id ? this.subscriptions.get(id) : undefined;
    if (!id || !subscription) {
      this.fail(`no subscription with id ${id ?? '(missing)'}`, f);
      return;
    }
    subscription.unsubscribe();
    this.subscriptions.delete(id);
    this.receipt(f);
  }

  /** Clients may only send the connection test of specification point 7; it is answered to the sender alone. */
  private send(f: StompFrame): void {
    const destination = header(f, 'destination');
    if (destination !== BROADCAST_DESTINATION || !isConnectionTest(f)) {
      this.fail(`clients may not publish to ${destination ?? '(no destination)'}`, f);
      return;
    }
    for (const [id, subscription] of this.subscriptions) {
      if (subscription.destination === BROADCAST_DESTINATION) {
        this.deliver(id, {
          destination,
          body: f.body,
          headers: { 'content-type': 'application/json' },
          audience: 'everyone',
        });
      }
    }
    this.receipt(f);
  }

  /** Revocation (account disabled, role or teams changed, token no longer accepted) ends the socket. */
  private async recheck(): Promise<void> {
    if (this.rechecking || this.closed || !this.principal) return;
    this.rechecking = true;
    let reason: string | null;
    try {
      reason = await this.principal.recheck();
    } catch {
      reason = 'your rights could not be confirmed; connect again';
    } finally {
      this.rechecking = false;
    }
    if (reason) this.fail(reason);
  }

  private deliver(subscriptionId: string, delivery: Delivery): void {
    if (this.closed) return;
    const messageId = `${this.principal?.userId ?? 'anon'}-${++this.messageCounter}`;
    this.write(
      frame(
        'MESSAGE',
        {
          ...delivery.headers,
          subscription: subscriptionId,
          'message-id': messageId,
          ack: messageId,
          destination: delivery.destination,
        },
        delivery.body,
      ),
    );
  }

  private receipt(f: StompFrame): void {
    const receipt = header(f, 'receipt');
    if (receipt !== undefined) this.write(frame('RECEIPT', { 'receipt-id': receipt }));
  }

  private fail(message: string, cause?: StompFrame): void {
    if (this.closed) return;
    const receipt = cause ? header(cause, 'receipt') : undefined;
    this.write(
      frame(
        'ERROR',
        { message, 'receipt-id': receipt, 'content-type': 'text/plain' },
        cause ? `${cause.command}: ${message}` : message,
      ),
    );
    this.transport.close();
    this.dispose();
  }

  private write(f: StompFrame): void {
    this.transport.send(encodeFrame(f));
  }
}
