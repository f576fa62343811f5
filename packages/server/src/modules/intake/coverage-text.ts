import { MAX_TEXT_FIELD_LENGTH, unsafeTextReason } from '@sextant/api';
import type { Coverage } from '@sextant/coverage';
import { ApiError } from '../../errors.ts';

const NAME_RULES = { multiline: false, maxLength: MAX_TEXT_FIELD_LENGTH };

/**
 * Issue 32, finding 6: the paths and names inside a coverage report reach the database too (an
 * upload's files missing from the commit, a report's file, class and method rows), and the engine
 * takes any text a format allows: a path holding NUL answered 500. Refused like a field: the parse
 * worker finds the first such text and the upload route answers with `unsafeCoverageTextError`.
 */
export function unsafeCoverageText(coverage: Coverage): string | null {
  for (const file of coverage.files) {
    const texts = [file.path];
    for (const cls of file.classes) {
      texts.push(cls.name);
      for (const method of cls.methods) texts.push(method.name, method.signature ?? '');
    }
    for (const text of texts) {
      const reason = unsafeTextReason(text, NAME_RULES);
      if (reason) return `${JSON.stringify(file.path.slice(0, 200)).slice(1, -1)}: ${reason}`;
    }
  }
  return null;
}

/** The field error an upload whose report holds such a text answers (`detail` from `unsafeCoverageText`). */
export function unsafeCoverageTextError(detail: string): ApiError {
  return new ApiError(400, 'validation-failed', 'The coverage report holds a path or name no field may hold.', {
    file: detail,
  });
}
