/**
 * JaCoCo's class id (issue 38): the CRC-64 (ISO polynomial, reflected, initial 0) of the class
 * file's bytes, as `org.jacoco.core.internal.data.CRC64.classId` computes it. Execution data names
 * each class by it, so exec data can be matched with the class files of a commit: another build of
 * the class has another id. 64-bit arithmetic is done in two 32-bit halves (no BigInt per byte).
 */
const POLY_HIGH = 0xd8000000; // 0xd800000000000000, its low half is 0

const TABLE_HIGH = new Uint32Array(256);
const TABLE_LOW = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let high = 0;
  let low = i;
  for (let bit = 0; bit < 8; bit++) {
    const odd = low & 1;
    low = ((low >>> 1) | ((high & 1) << 31)) >>> 0;
    high >>>= 1;
    if (odd) high = (high ^ POLY_HIGH) >>> 0;
  }
  TABLE_HIGH[i] = high;
  TABLE_LOW[i] = low;
}

/** Java 9's class file major version: JaCoCo computes such a file's id as if it were Java 8's (52). */
const JAVA_9 = 53;
const JAVA_8 = 52;

/** The class id of a class file as JaCoCo writes it in execution data: 16 lower-case hex digits. */
export function jacocoClassId(bytes: Uint8Array): string {
  let high = 0;
  let low = 0;
  // JaCoCo's early Java 9 support: a Java 9 class file is summed with version byte 52.
  const java9 = bytes.length > 7 && bytes[6] === 0 && bytes[7] === JAVA_9;
  for (let i = 0; i < bytes.length; i++) {
    const byte = java9 && i === 7 ? JAVA_8 : (bytes[i] as number);
    const index = (low ^ byte) & 0xff;
    low = (((low >>> 8) | ((high & 0xff) << 24)) ^ (TABLE_LOW[index] as number)) >>> 0;
    high = ((high >>> 8) ^ (TABLE_HIGH[index] as number)) >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}
