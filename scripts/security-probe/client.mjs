// HTTP and STOMP-over-WebSocket access to the probed server, every step with a deadline.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import WebSocket from 'ws';

export const REQUEST_TIMEOUT_MS = 15_000;

/** `{status, headers, body, json, ms}` of one request; a network failure or timeout throws. */
export async function call(base, method, path, { token, body, headers = {}, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  const started = performance.now();
  const init = {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual',
  };
  if (body !== undefined) {
    init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    if (!init.headers['content-type']) init.headers['content-type'] = 'application/json';
  }
  const res = await fetch(new URL(path, base), init);
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, headers: res.headers, body: text, json, ms: Math.round(performance.now() - started) };
}

/** The data of a 2xx answer; anything else throws with the answer, for set-up steps that must succeed. */
export async function must(base, method, path, options) {
  const res = await call(base, method, path, options);
  if (res.status < 200 || res.status > 299) {
    throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 200)}`);
  }
  return res.json?.data;
}

export async function signIn(base, username, password) {
  const data = await must(base, 'POST', '/api/login', { body: { username, password } });
  return { accessToken: data.accessToken, refreshToken: data.refreshToken, userId: data.userData.userid };
}

/**
 * A raw streaming POST (no length declared) whose body `write(req)` produces; resolves with the
 * answer as soon as the server gives one, even before the body is done (a server that refuses early).
 */
export function streamingPost(base, path, headers, write, timeoutMs) {
  const url = new URL(path, base);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = send(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({
          status: res.statusCode,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: Math.round(performance.now() - started),
        });
      });
      res.on('error', () => undefined);
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      if (!answered) reject(error);
    });
    write(req, () => answered).catch((error) => req.destroy(error));
  });
}

/** A STOMP frame as text (the server speaks STOMP 1.2 on /ws). */
export function frame(command, headers = {}, body = '') {
  const lines = Object.entries(headers).map(([k, v]) => `${k}:${v}`);
  return `${command}\n${lines.join('\n')}\n\n${body}\u0000`;
}

/** A WebSocket to `/ws` that records frames received and when it closed. */
export function openSocket(base, timeoutMs = REQUEST_TIMEOUT_MS) {
  const url = new URL('/ws', base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
    const state = { ws, frames: [], closedAt: null, openedAt: 0 };
    state.closed = new Promise((done) =>
      ws.on('close', () => {
        state.closedAt = performance.now();
        done();
      }),
    );
    ws.on('message', (data) => state.frames.push(data.toString('utf8')));
    ws.on('open', () => {
      state.openedAt = performance.now();
      resolve(state);
    });
    ws.on('error', (error) => {
      if (!state.openedAt) reject(error);
    });
  });
}

/** Resolves true when `socket` closes within `ms`, false otherwise (the socket is then left open). */
export async function closesWithin(socket, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const closed = socket.closed.then(() => true);
  const result = await Promise.race([closed, timeout]);
  clearTimeout(timer);
  return result;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
