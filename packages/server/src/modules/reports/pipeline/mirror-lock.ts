import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** How often a waiting process looks at the lock again. */
const RETRY_MS = 100;

/** Whether the holder written in the lock file is gone: a process of this host that no longer runs, or too old a lock. */
async function abandoned(file: string, staleMs: number): Promise<boolean> {
  try {
    const [holder, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const [host, pid] = holder.trim().split(' ');
    if (host !== hostname() || !pid) return false;
    try {
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  } catch {
    // Removed between our attempt and this look: try again at once.
    return false;
  }
}

/**
 * Runs `task` while holding `<dir>.lock`, a file created exclusively, so that worker processes sharing
 * the data folder (`--role worker`, README "Operating") clone or fetch one app's mirror one at a
 * time; a second `git fetch` into the same repository fails on git's own ref locks, and two first
 * clones would replace each other's folder. A lock whose holder died (SIGKILL) is taken over: at
 * once when the holder was a process of this host, after `staleMs` otherwise.
 */
export async function withMirrorLock<T>(dir: string, staleMs: number, task: () => Promise<T>): Promise<T> {
  const file = `${dir}.lock`;
  await mkdir(dirname(file), { recursive: true });
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${hostname()} ${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await abandoned(file, staleMs)) {
        await rm(file, { force: true });
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
  try {
    return await task();
  } finally {
    await rm(file, { force: true });
  }
}
