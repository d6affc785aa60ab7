// Joins class names and leaves out those that are absent: a CSS module's modifier that does
// not apply (`cx(styles.row, failed && styles.failed)`), or one the module does not define
// (`cx(styles.toast, styles[variant])`). See docs/decisions/035-styling-convention.md.
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(' ');
}
