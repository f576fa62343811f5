import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A seeded two-commit repository (tags `base` and `head`, head checked out) with the changes
 * diffs trip over: lines replaced, inserted and removed, CRLF files, files without a final
 * newline (and gaining or losing it), renames with and without edits, deletions, an added file,
 * a binary file, a name with a space. Plus a Cobertura report of head measuring random lines.
 */
export interface RandomRepo {
  repo: string;
  /** Cobertura XML of head, outside the repository (its `<source>` is the repository). */
  report: string;
}

/** Park–Miller-style generator: the same seed gives the same repository on every machine. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return { chance: (p: number) => next() < p, int: (n: number) => Math.floor(next() * n) };
}

type TextFile = { lines: string[]; crlf: boolean; noFinalNewline: boolean };

// diff-cover reads git's diff as printed, where a non-ASCII name is quoted: those names are left out.
const NAMES = ['a.py', 'b.py', 'dir/c.py', 'dir/sub/d.py', 'e f.py', 'g.py', 'h.py'];
const LINES = ['x = 1', 'y = x + 2', '', '    return y', 'def f():', '# note', 'if x:', '    pass', 'z = "é"'];

export function randomRepo(seed: number): RandomRepo {
  const { chance, int } = generator(seed);
  const line = () => LINES[int(LINES.length)] as string;
  const newFile = (): TextFile => ({
    lines: Array.from({ length: 1 + int(30) }, line),
    crlf: chance(0.15),
    noFinalNewline: chance(0.2),
  });
  const edited = (file: TextFile): TextFile => {
    const lines = [...file.lines];
    for (let edits = 1 + int(4); edits > 0; edits--) {
      const at = int(lines.length + 1);
      const kind = int(3);
      if (kind === 0) lines.splice(at, 0, ...Array.from({ length: 1 + int(3) }, line));
      else if (kind === 1 && lines.length > 1) lines.splice(Math.min(at, lines.length - 1), 1 + int(2));
      else lines[Math.min(at, lines.length - 1)] = `${line()} # ${int(100)}`;
    }
    if (lines.length === 0) lines.push('x = 0');
    return { lines, crlf: file.crlf, noFinalNewline: chance(0.1) ? !file.noFinalNewline : file.noFinalNewline };
  };

  const root = mkdtempSync(join(tmpdir(), `sextant-random-${seed}-`));
  const repo = join(root, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.name=T', '-c', 'user.email=t@x.test', ...args], { stdio: 'pipe' });
  const write = (path: string, file: TextFile) => {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    const eol = file.crlf ? '\r\n' : '\n';
    writeFileSync(join(repo, path), file.lines.join(eol) + (file.noFinalNewline ? '' : eol));
  };

  git('init', '-q');
  const files = new Map<string, TextFile>();
  for (const name of NAMES) if (chance(0.7)) files.set(name, newFile());
  if (files.size === 0) files.set('a.py', newFile());
  for (const [path, file] of files) write(path, file);
  git('add', '-A');
  git('commit', '-qm', 'base');
  git('tag', 'base');

  for (const [path, file] of [...files]) {
    const roll = int(10);
    if (roll < 5) {
      files.set(path, edited(file));
      write(path, files.get(path) as TextFile);
    } else if (roll === 5) {
      git('rm', '-q', '--', path);
      files.delete(path);
    } else if (roll === 6) {
      const to = `moved/${path.replaceAll('/', '_')}`;
      mkdirSync(join(repo, 'moved'), { recursive: true });
      git('mv', '--', path, to);
      files.delete(path);
      files.set(to, chance(0.5) ? edited(file) : file);
      write(to, files.get(to) as TextFile);
    }
  }
  if (chance(0.5)) {
    files.set('new.py', newFile());
    write('new.py', files.get('new.py') as TextFile);
  }
  if (chance(0.3)) writeFileSync(join(repo, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255, 10, 0]));
  git('add', '-A');
  git('commit', '-qm', 'head', '--allow-empty');
  git('tag', 'head');

  let classes = '';
  for (const [path, file] of files) {
    if (chance(0.1)) continue;
    let lines = '';
    for (let number = 1; number <= file.lines.length; number++) {
      if (chance(0.6)) lines += `<line number="${number}" hits="${chance(0.5) ? 0 : 1 + int(3)}" branch="false"/>`;
    }
    classes += `<class name="${path}" filename="${path}" line-rate="0" branch-rate="0"><methods/><lines>${lines}</lines></class>`;
  }
  const report = join(root, 'coverage.xml');
  writeFileSync(
    report,
    `<?xml version="1.0" ?><coverage version="1" line-rate="0" branch-rate="0" timestamp="1" complexity="0">` +
      `<sources><source>${repo}</source></sources><packages><package name="p" line-rate="0" branch-rate="0">` +
      `<classes>${classes}</classes></package></packages></coverage>`,
  );
  return { repo, report };
}
