import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClassCoverage } from '@sextant/coverage';
import { ExecReportError, execToXml, readCoverageFile } from '@sextant/coverage/node';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../tools/test-support/machine.ts';
import { dumpJacocoAgent, JacocoDumpError, parseJacocoAddress } from '../src/jacoco/tcp-dump.ts';
import { runCli } from '../src/run.ts';
import { freePort } from './support/free-port.ts';
import { buildShop, jacocoToolsMissing, referenceExec, startShop } from './support/jacoco-jvm.ts';

const noJacoco = skipWithout('a real JaCoCo agent in tcpserver mode', jacocoToolsMissing);

const utf = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
};
const long = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(value));
  return bytes;
};
const header = (version = 0x1007) => Buffer.from([0x01, 0xc0, 0xc0, version >> 8, version & 0xff]);
const session = (start: number) => Buffer.concat([Buffer.from([0x10]), utf('vm-1'), long(start), long(start + 5)]);
/** An execution data block as JaCoCo writes it: varint probe count, then the probes eight to a byte. */
const classData = (id: number, name: string, probes: boolean[]) => {
  const packed = Buffer.alloc(Math.ceil(probes.length / 8));
  probes.forEach((hit, i) => {
    if (hit) packed[i >> 3] = (packed[i >> 3] as number) | (1 << (i & 7));
  });
  const count = probes.length < 128 ? [probes.length] : [0x80 | (probes.length & 0x7f), probes.length >> 7];
  return Buffer.concat([Buffer.from([0x11]), long(id), utf(name), Buffer.from(count), packed]);
};
const COMMAND_OK = Buffer.from([0x20]);

/** A stand-in agent answering each connection with `answer` (byte by byte when `trickle`). */
async function fakeAgent(answer: (request: Buffer, socket: Socket) => void) {
  const requests: Buffer[] = [];
  const server = createServer((socket) => {
    socket.once('data', (request) => {
      requests.push(request);
      answer(request, socket);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { port, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function trickle(socket: Socket, bytes: Buffer) {
  for (let i = 0; i < bytes.length; i++) socket.write(bytes.subarray(i, i + 1));
}

describe('JaCoCo tcpserver dumps', () => {
  it('reads host and port, [v6]:port and a bare host on JaCoCo’s port 6300; refuses the rest', () => {
    expect(parseJacocoAddress('app.test:6301')).toEqual({ host: 'app.test', port: 6301 });
    expect(parseJacocoAddress('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
    expect(parseJacocoAddress('10.0.0.5')).toEqual({ host: '10.0.0.5', port: 6300 });
    for (const bad of ['', 'h:0', 'h:70000', 'a b:1', 'h:x', '--upload-pack=x:1', 'h:1:2']) {
      expect(() => parseJacocoAddress(bad), bad).toThrow(/--jacoco wants HOST:PORT/);
    }
  });

  it('asks for a dump without reset and keeps the answer up to the closing block, however it arrives', async () => {
    const probes = Array.from({ length: 200 }, (_, i) => i % 3 === 0);
    const blocks = (start: number, flip: boolean) =>
      Buffer.concat([
        header(),
        session(start),
        classData(7, 'demo/Shop', [true, false, flip]),
        classData(8, 'demo/Main', probes),
      ]);
    const answers = [blocks(1000, false), blocks(2000, false), blocks(3000, true)];
    const agent = await fakeAgent((_request, socket) =>
      trickle(socket, Buffer.concat([answers.shift() as Buffer, COMMAND_OK])),
    );
    try {
      const address = { host: '127.0.0.1', port: agent.port };
      const first = await dumpJacocoAgent(address);
      expect(agent.requests[0]).toEqual(Buffer.from([0x01, 0xc0, 0xc0, 0x10, 0x07, 0x40, 0x01, 0x00]));
      expect(first.exec).toEqual(blocks(1000, false));
      expect(first.classes).toBe(2);
      expect(first.coveredProbes).toBe(1 + probes.filter(Boolean).length);
      const sameCoverageLater = await dumpJacocoAgent(address);
      expect(sameCoverageLater.fingerprint).toBe(first.fingerprint);
      const more = await dumpJacocoAgent(address);
      expect(more.fingerprint).not.toBe(first.fingerprint);
      expect(more.coveredProbes).toBe(first.coveredProbes + 1);
    } finally {
      await agent.close();
    }
  });

  it('names the agent and the reason when the answer is not a whole JaCoCo dump', async () => {
    const cases: [Buffer | null, RegExp][] = [
      [Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), /not JaCoCo execution data/],
      [COMMAND_OK, /not JaCoCo execution data/],
      [Buffer.concat([header(0x1006), COMMAND_OK]), /exec format 0x1006; this reads 0x1007/],
      [Buffer.concat([header(), Buffer.from([0x33])]), /unexpected block 0x33 at byte 5/],
      [
        Buffer.concat([header(), session(1), classData(1, 'a/B', [true]).subarray(0, 12)]),
        /closed before the dump ended/,
      ],
      [null, /no answer within 300 ms/],
    ];
    for (const [answer, reason] of cases) {
      const agent = await fakeAgent((_request, socket) => {
        if (answer) socket.end(answer);
      });
      try {
        const dump = dumpJacocoAgent({ host: '127.0.0.1', port: agent.port }, { timeoutMs: 300 });
        await expect(dump).rejects.toThrow(JacocoDumpError);
        await expect(dump).rejects.toThrow(
          new RegExp(`^JaCoCo agent at 127\\.0\\.0\\.1:${agent.port}: .*${reason.source}`),
        );
      } finally {
        await agent.close();
      }
    }
    const nobody = await freePort();
    await expect(dumpJacocoAgent({ host: '127.0.0.1', port: nobody })).rejects.toThrow(
      new RegExp(`JaCoCo agent at 127\\.0\\.0\\.1:${nobody}: connect ECONNREFUSED`),
    );
  });
  it('stops the agent mid-dump when told, without a heart-beat claiming an error', async () => {
    const stop = new AbortController();
    const silent = await fakeAgent(() => stop.abort());
    const out: string[] = [];
    const err: string[] = [];
    const io = { cwd: tmpdir(), stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), colour: false };
    try {
      const args = ['agent', '--server', 'http://127.0.0.1:9', '--token', 't', '--app', 'a', '--env', 'test'];
      const jacoco = ['--jacoco', `127.0.0.1:${silent.port}`, '--classes', tmpdir(), '--commit', 'c1'];
      expect(await runCli([...args, ...jacoco, '--interval', '1h'], { ...io, signal: stop.signal })).toBe(0);
      expect(silent.requests).toHaveLength(1);
      expect(out.join('')).toMatch(/: stopped\n$/);
      expect(err.join('')).toBe('');
    } finally {
      await silent.close();
    }
  });
});

describe.skipIf(noJacoco)(`a real JaCoCo agent (needs ${jacocoToolsMissing ?? 'nothing more'})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'sx-jacoco-tcp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shopClass = async (xml: string) => {
    const coverage = await readCoverageFile(xml, { format: 'jacoco' });
    const classes = coverage.files.flatMap((file) => file.classes);
    return classes.find((c) => c.name === 'demo/Shop') as ClassCoverage;
  };

  it('dumps a running JVM: the XML is JaCoCo’s own report of what ran, equal to its exec file at exit', async () => {
    const shop = buildShop(dir);
    const jvm = await startShop(shop, 3);
    try {
      const dump = await dumpJacocoAgent({ host: '127.0.0.1', port: jvm.port });
      expect(dump.classes).toBe(2);
      const work = mkdtempSync(join(dir, 'live-'));
      const live = await shopClass(
        await execToXml({ exec: dump.exec, classes: shop.classes, name: 'shop', workDir: work }),
      );
      const atExit = mkdtempSync(join(dir, 'exit-'));
      const reference = await shopClass(
        await execToXml({ exec: referenceExec(shop, dir, 3), classes: shop.classes, name: 'shop', workDir: atExit }),
      );
      expect(live).toEqual(reference);
      const method = (name: string) => live.methods.find((m) => m.name === name);
      expect(method('price')?.counters.method).toEqual({ covered: 1, missed: 0 });
      expect(method('price')?.counters.branch).toEqual({ covered: 1, missed: 1 });
      expect(method('unused')?.counters.method).toEqual({ covered: 0, missed: 1 });
      const again = await dumpJacocoAgent({ host: '127.0.0.1', port: jvm.port });
      expect(again.fingerprint).toBe(dump.fingerprint);
      await jvm.price(12);
      const grown = await dumpJacocoAgent({ host: '127.0.0.1', port: jvm.port });
      expect(grown.fingerprint).not.toBe(dump.fingerprint);
      expect(grown.coveredProbes).toBeGreaterThan(dump.coveredProbes);
    } finally {
      await jvm.stop();
    }
  });

  it('reads the classes from a jar as from a folder, and says what is missing', async () => {
    const shop = buildShop(mkdtempSync(join(dir, 'jar-')));
    const jvm = await startShop(shop, 12);
    try {
      const { exec } = await dumpJacocoAgent({ host: '127.0.0.1', port: jvm.port });
      const work = mkdtempSync(join(dir, 'jar-work-'));
      const fromFolder = await shopClass(await execToXml({ exec, classes: shop.classes, name: 's', workDir: work }));
      expect(fromFolder.methods.find((m) => m.name === 'price')?.counters.branch).toEqual({ covered: 1, missed: 1 });
      const jar = join(work, 'shop.jar');
      execFileSync('jar', ['cf', jar, '-C', shop.classes, '.']);
      expect(await shopClass(await execToXml({ exec, classes: jar, name: 's', workDir: work }))).toEqual(fromFolder);
      await expect(
        execToXml({ exec, classes: join(dir, 'no-such-classes'), name: 's', workDir: work }),
      ).rejects.toThrow(/--classes .*no-such-classes: no such folder or jar/);
      await expect(
        execToXml({ exec, classes: shop.classes, name: 's', workDir: work, jacocoLib: dir }),
      ).rejects.toThrow(ExecReportError);
      await expect(
        execToXml({ exec: Buffer.from('not an exec file'), classes: shop.classes, name: 's', workDir: work }),
      ).rejects.toThrow(/JaCoCo's report task failed/);
    } finally {
      await jvm.stop();
    }
  }, 180_000); // four runs of Ant: slow on a loaded machine
});
