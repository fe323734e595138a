// A unique-constraint violation from either database: two concurrent requests raced to create the
// same row (the checks before the insert passed for both); the loser is answered as a conflict.
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
