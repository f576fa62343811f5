/**
 * What no text field of the API may hold, whatever its own schema says (issue 32, finding 6):
 * PostgreSQL cannot store NUL in text (it answered 500), a lone UTF-16 surrogate is silently turned
 * into U+FFFD on its way to the database, and other C0 control characters have no place in a name
 * or a search (terminal escapes in logs, invisible look-alikes). Tab, line feed and carriage return
 * stay allowed where a field may be multi-line text: JSON bodies and form fields, not the URL.
 */

/** Longest text a single field may carry; the longest schema limit (a message's text) is 20,000. */
export const MAX_TEXT_FIELD_LENGTH = 32 * 1024;

export type TextRules = {
  /** Whether tab, line feed and carriage return are allowed (multi-line text). */
  multiline: boolean;
  /** Longest string allowed; `Infinity` for a whole document such as a CSV body. */
  maxLength: number;
};

export type UnsafeText = { path: string; message: string };

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Why `text` is refused under `rules`, or null when it is acceptable. */
export function unsafeTextReason(text: string, rules: TextRules): string | null {
  if (text.length > rules.maxLength) return `At most ${rules.maxLength} characters.`;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return 'The NUL character is not allowed.';
    if (unit < 0x20) {
      if (rules.multiline && (unit === TAB || unit === LINE_FEED || unit === CARRIAGE_RETURN)) continue;
      return 'Control characters are not allowed.';
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (unit > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return 'Not valid Unicode (a lone surrogate).';
      i++;
    }
  }
  return null;
}

/**
 * The first string (object keys included) in a parsed JSON value, query or form that `rules` refuse,
 * with its path in the form the API's field errors use (`items.0.name`; `path` names the root).
 */
export function findUnsafeText(value: unknown, rules: TextRules, path = ''): UnsafeText | null {
  if (typeof value === 'string') {
    const message = unsafeTextReason(value, rules);
    return message ? { path: path || '_', message } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], rules, join(path, String(i)));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object' && isPlainRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const keyReason = unsafeTextReason(key, { multiline: false, maxLength: 256 });
      if (keyReason) return { path: join(path, printableKey(key)), message: `Field name: ${keyReason}` };
      const found = findUnsafeText(item, rules, join(path, key));
      if (found) return found;
    }
  }
  return null;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

// Streams, buffers and other class instances are not text the request parsed; they are left alone.
// A parsed query string's object has a prototype that itself has none (fast-querystring's `Empty`).
function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/** A refused key is named with its unsafe characters escaped, so the answer itself stays clean. */
function printableKey(key: string): string {
  return JSON.stringify(key.slice(0, 64)).slice(1, -1);
}
