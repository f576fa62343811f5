/** What is used of node:crypto (not imported: the core stays browser-safe and asks at run time). */
interface NodeCrypto {
  createHash(algorithm: 'sha1'): { update(text: string, encoding: 'utf8'): { digest(encoding: 'hex'): string } };
}

/**
 * Node's OpenSSL, where the core runs in Node (20.16+: `process.getBuiltinModule`); else null.
 * Asked for at the first hash: loading node:crypto costs a run that hashes nothing ~4 ms.
 */
let nodeCrypto: NodeCrypto | null | undefined;

function openSsl(): NodeCrypto | null {
  if (nodeCrypto === undefined) {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    nodeCrypto = (process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined) ?? null;
  }
  return nodeCrypto;
}

/**
 * SHA-1 of a string's UTF-8 bytes, hex: Node's OpenSSL when there, else `sha1HexPortable`. Used
 * for body hashes, not for security.
 */
export function sha1Hex(text: string): string {
  const crypto = openSsl();
  return crypto ? crypto.createHash('sha1').update(text, 'utf8').digest('hex') : sha1HexPortable(text);
}

/**
 * SHA-1 (FIPS 180-4) of a string's UTF-8 bytes, hex. Synchronous and free of node:* so the core
 * stays browser-safe; Web Crypto's digest is async and its first use costs a worker round trip
 * per method.
 */
export function sha1HexPortable(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array((((bytes.length + 8) >> 6) + 1) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  const w = new Uint32Array(80);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = (w[i - 3] as number) ^ (w[i - 8] as number) ^ (w[i - 14] as number) ^ (w[i - 16] as number);
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number;
      let k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const next = (((a << 5) | (a >>> 27)) + f + e + k + (w[i] as number)) >>> 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
  }
  return [h0, h1, h2, h3, h4].map((h) => h.toString(16).padStart(8, '0')).join('');
}
