import type { ByteStrings } from '../xml/byte-strings.ts';
import { ascii, expect, skipSpace } from '../xml/fast-bytes.ts';
import { readLineRun } from './cobertura-lines.ts';

/**
 * A whole `<method>` as istanbul/c8 writes one, read straight from the bytes:
 *
 *   <method name="N" hits="H" signature="S">
 *     <lines>
 *       <line …/>…            (usual spellings, see cobertura-lines.ts; none at all too)
 *     </lines>
 *   </method>
 *
 * Values holding a reference or anything the general path would refuse, another spelling, or
 * a block the buffer ends inside are left to the general path, which reads it from its `<`.
 */

const METHOD_NAME = ascii('<method name="');
const HITS = ascii(' hits="');
const SIGNATURE = ascii(' signature="');
const LINES = ascii('<lines>');
const LINES_END = ascii('</lines>');
const METHOD_END = ascii('</method>');

/** What `readMethod` read: names as the general path would make them, and the lines' range. */
export class MethodFields {
  name = '';
  /** The raw signature, '' when empty. */
  signature = '';
  startLine: number | null = null;
  endLine: number | null = null;
  hit = false;
}

export const methodFields = new MethodFields();
const fields = methodFields;

/** Takes each line of the block: the general path's range of a method's lines. */
function addMethodLine(line: number, hits: number): void {
  fields.startLine = fields.startLine === null ? line : Math.min(fields.startLine, line);
  fields.endLine = fields.endLine === null ? line : Math.max(fields.endLine, line);
  if (hits > 0) fields.hit = true;
}

/**
 * Reads the `<method>` block at lt into `methodFields`: the offset after its `</method>`, or -1.
 * `names` turns value bytes into the strings the general path would make of them.
 */
export function readMethod(b: Uint8Array, lt: number, names: ByteStrings): number {
  const nameStart = expect(b, lt, METHOD_NAME);
  const nameEnd = nameStart === -1 ? -1 : plainValueEnd(b, nameStart);
  const hitsStart = nameEnd === -1 ? -1 : expect(b, nameEnd + 1, HITS);
  const hitsEnd = hitsStart === -1 ? -1 : plainValueEnd(b, hitsStart);
  const signatureStart = hitsEnd === -1 ? -1 : expect(b, hitsEnd + 1, SIGNATURE);
  const signatureEnd = signatureStart === -1 ? -1 : plainValueEnd(b, signatureStart);
  if (signatureEnd === -1 || signatureEnd + 1 >= b.length || b[signatureEnd + 1] !== 62 /* > */) return -1;
  const linesStart = expect(b, skipSpace(b, signatureEnd + 2), LINES);
  if (linesStart === -1) return -1;
  fields.startLine = null;
  fields.endLine = null;
  fields.hit = false;
  let at = skipSpace(b, linesStart);
  const run = readLineRun(b, at, addMethodLine);
  if (run !== -1) at = skipSpace(b, run);
  const linesEnd = expect(b, at, LINES_END);
  const end = linesEnd === -1 ? -1 : expect(b, skipSpace(b, linesEnd), METHOD_END);
  if (end === -1) return -1;
  fields.name = names.get(b, nameStart, nameEnd);
  fields.signature = names.get(b, signatureStart, signatureEnd);
  return end;
}

/**
 * Where the double-quoted value starting at `start` ends (its closing quote), or -1 when it
 * holds a reference or a `<`, or the buffer ends first.
 */
function plainValueEnd(b: Uint8Array, start: number): number {
  for (let i = start; i < b.length; i++) {
    const c = b[i] as number;
    if (c === 34 /* " */) return i;
    if (c === 38 /* & */ || c === 60 /* < */) return -1;
  }
  return -1;
}
