/** A row's creation and change times as the API shows them (ISO 8601). */
export function timestamps(row: { createdAt: Date; updatedAt: Date }) {
  return { createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
