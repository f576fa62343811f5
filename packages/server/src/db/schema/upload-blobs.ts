import { customType, integer, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { coverageUploads } from './reports.ts';

/** Raw bytes (a Buffer both ways). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * An upload's bytes, gzipped, in chunks of about 1 MiB (ADR 0006): written in the upload's own
 * transaction, read back one chunk at a time by whichever worker runs the report.
 */
export const uploadBlobs = pgTable(
  'upload_blobs',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => coverageUploads.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.seq] })],
);
