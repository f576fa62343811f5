const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Expands the five predefined entities and numeric character references; anything else fails. */
export function decodeEntities(raw: string, fail: (reason: string) => never): string {
  return raw.replace(/&([^;&\s]{0,12});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail(`unterminated entity reference "${whole}"`);
    const predefined = PREDEFINED[ref];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(ref);
    if (numeric) {
      const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
      if (code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) return String.fromCodePoint(code);
      fail(`character reference "${whole}" out of range`);
    }
    return fail(`entity reference "${whole}" is not one of the five predefined ones`);
  });
}
