import {
  type Audience,
  BROADCAST_DESTINATION,
  type Broker,
  DESTINATIONS,
  type Delivery,
  isConnectionTest,
} from '../broker.ts';
import { frame, header, type StompFrame } from './frame.ts';
import {
  type CodecLimits,
  DEFAULT_LIMITS,
  encodeFrame,
  FrameDecoder,
  HEARTBEAT,
  StompProtocolError,
} from './frame-codec.ts';

export type Transport = { send(data: Uint8Array): void; close(): void };
export type Principal = {
  userId: string;
  mayRead(destination: string): boolean;
  /** From the rights last read (at most `recheckMs` old). */
  mayReceive(audience: Audience): boolean;
  /** Reads the user's rights again; a reason when the socket must end (token refused, account disabled, rights changed). */
  recheck(): Promise<string | null>;
};

export type SessionOptions = {
  authenticate(token: string): Promise<Principal | null>;
  broker: Broker;
  limits?: CodecLimits;
  /** What the server offers: send a heart-beat every `sendMs`, expect one every `expectMs` (0 = off). */
  heartbeat?: { sendMs: number; expectMs: number };
  maxSubscriptions?: number;
  /** A socket that has not sent CONNECT by then is closed (default 10 s). */
  connectTimeoutMs?: number;
  /** Bytes a socket may send before it is signed in (default 8 KiB); beyond, it is closed. */
  preConnectMaxBytes?: number;
  /** How often a signed-in socket's rights are read again (default 2 s). */
  recheckMs?: number;
};

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_PRE_CONNECT_MAX_BYTES = 8 * 1024;
export const DEFAULT_RECHECK_MS = 2000;

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
    const [cx = 0, cy = 0] = (offered ?? '0,0').split(',').map((n) => Number.parseInt(n, 10) || 0);
    const { sendMs, expectMs } = this.options.heartbeat ?? { sendMs: 0, expectMs: 0 };
    const outgoing = sendMs > 0 && cy > 0 ? Math.max(sendMs, cy) : 0;
    const incoming = expectMs > 0 && cx > 0 ? Math.max(expectMs, cx) : 0;
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
