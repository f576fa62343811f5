import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEBIAN_JACOCO_LIB } from '@sextant/coverage/node';
import { firstMissing, missingCommands, missingFiles } from '../../../../tools/test-support/machine.ts';
import { freePort } from './free-port.ts';

/** A JDK, Ant and Debian's libjacoco-java: what running a real JaCoCo agent here takes. */
export const jacocoToolsMissing = firstMissing(
  missingCommands('java', 'javac', 'jar', 'ant'),
  missingFiles(join(DEBIAN_JACOCO_LIB, 'org.jacoco.agent.jar')),
);

const SHOP = `package demo;

public class Shop {
  public static int price(int n) {
    if (n > 10) return n * 9;
    return n * 10;
  }

  public static String unused() {
    return "never";
  }
}
`;

// Prices its argument, then each line of its standard input, saying "ready" after each; ends with it.
const MAIN = `package demo;

import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Main {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    String next = args[0];
    while (next != null) {
      System.out.println(Shop.price(Integer.parseInt(next.trim())));
      System.out.println("ready");
      System.out.flush();
      next = in.readLine();
    }
  }
}
`;

/** Compiles the little shop (Java 11 class files: JaCoCo 0.8.6 reads up to 15) and unpacks the agent. */
export function buildShop(dir: string): { classes: string; agent: string } {
  const sources = join(dir, 'src/demo');
  const classes = join(dir, 'classes');
  mkdirSync(sources, { recursive: true });
  writeFileSync(join(sources, 'Shop.java'), SHOP);
  writeFileSync(join(sources, 'Main.java'), MAIN);
  execFileSync('javac', [
    '--release',
    '11',
    '-g',
    '-d',
    classes,
    join(sources, 'Shop.java'),
    join(sources, 'Main.java'),
  ]);
  // Debian's org.jacoco.agent.jar carries the runnable jacocoagent.jar inside it.
  execFileSync('jar', ['xf', join(DEBIAN_JACOCO_LIB, 'org.jacoco.agent.jar'), 'jacocoagent.jar'], { cwd: dir });
  return { classes, agent: join(dir, 'jacocoagent.jar') };
}

/** Runs Main with JaCoCo's agent in tcpserver mode; resolves once Shop ran and the agent listens. */
export async function startShop(shop: { classes: string; agent: string }, arg: number) {
  const port = await freePort();
  const jvm: ChildProcess = spawn(
    'java',
    [
      `-javaagent:${shop.agent}=output=tcpserver,address=127.0.0.1,port=${port}`,
      '-cp',
      shop.classes,
      'demo.Main',
      String(arg),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  let waiting: { readies: number; resolve: () => void } | null = null;
  const readies = () => output.split('ready\n').length - 1;
  const exited = new Promise<never>((_resolve, reject) =>
    jvm.once('exit', (code) => reject(new Error(`java exited with ${code}: ${output}`))),
  );
  exited.catch(() => {});
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    if (waiting && readies() >= waiting.readies) waiting.resolve();
  };
  jvm.stdout?.on('data', onOutput);
  jvm.stderr?.on('data', onOutput);
  const ready = (count: number) =>
    Promise.race([new Promise<void>((resolve) => (waiting = { readies: count, resolve })), exited]);
  await ready(1);
  return {
    port,
    /** Prices `n` in the running JVM; resolves once it did. */
    price: async (n: number) => {
      const after = readies() + 1;
      jvm.stdin?.write(`${n}\n`);
      await ready(after);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (jvm.exitCode !== null) return resolve();
        jvm.once('exit', () => resolve());
        jvm.stdin?.end();
      }),
  };
}

/** The same run with the agent writing its exec file when the JVM ends: JaCoCo's own reference. */
export function referenceExec(shop: { classes: string; agent: string }, dir: string, arg: number): Buffer {
  const exec = join(dir, `reference-${arg}.exec`);
  execFileSync('java', [`-javaagent:${shop.agent}=destfile=${exec}`, '-cp', shop.classes, 'demo.Main', String(arg)], {
    input: '',
  });
  return readFileSync(exec);
}
