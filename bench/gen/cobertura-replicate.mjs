// Writes a Cobertura report N times as large: every <package> once per path prefix (file names and
// package names renamed), the root's counts multiplied, <source> set to the repository it describes.
// usage: node cobertura-replicate.mjs IN.xml OUT.xml REPO PREFIX...
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, repo, ...prefixes] = process.argv.slice(2);
const xml = readFileSync(input, 'utf8');
const open = xml.indexOf('<packages>') + '<packages>'.length;
const close = xml.lastIndexOf('</packages>');
const packages = xml.slice(open, close);
const multiply = (name) => (text) =>
  text.replace(new RegExp(`${name}="(\\d+)"`), (_, n) => `${name}="${Number(n) * prefixes.length}"`);

let head = xml.slice(0, open).replace(/<source>[^<]*<\/source>/, `<source>${repo}</source>`);
for (const name of ['lines-valid', 'lines-covered', 'branches-valid', 'branches-covered']) head = multiply(name)(head);
const copies = prefixes.map((prefix) =>
  packages
    .replaceAll('filename="', `filename="${prefix}`)
    .replaceAll('<package name="', `<package name="${prefix.replaceAll('/', '.')}`),
);
writeFileSync(output, head + copies.join('') + xml.slice(close));
