import { MAX_TEXT_FIELD_LENGTH, unsafeTextReason } from '@sextant/api';
import type { Coverage } from '@sextant/coverage';
import { ApiError } from '../../plugins/errors.ts';

const NAME_RULES = { multiline: false, maxLength: MAX_TEXT_FIELD_LENGTH };

/**
 * Issue 32, finding 6: the paths and names inside a coverage report reach the database too (an
 * upload's files missing from the commit, a report's file, class and method rows), and the engine
 * takes any text a format allows: a path holding NUL answered 500. Refused like a field.
 */
export function refuseUnsafeCoverageText(coverage: Coverage): void {
  for (const file of coverage.files) {
    refuse(file.path, file.path);
    for (const cls of file.classes) {
      refuse(cls.name, file.path);
      for (const method of cls.methods) {
        refuse(method.name, file.path);
        if (method.signature) refuse(method.signature, file.path);
      }
    }
  }
}

function refuse(text: string, where: string): void {
  const reason = unsafeTextReason(text, NAME_RULES);
  if (!reason) return;
  const shown = JSON.stringify(where.slice(0, 200)).slice(1, -1);
  throw new ApiError(400, 'validation-failed', 'The coverage report holds a path or name no field may hold.', {
    file: `${shown}: ${reason}`,
  });
}
