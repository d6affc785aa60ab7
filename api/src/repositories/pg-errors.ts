// Recognises PostgreSQL errors by SQLSTATE; pg and PGlite both expose it as `code`.
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
