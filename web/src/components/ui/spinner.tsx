export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <span className="spinner__circle" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </div>
  );
}

/** Whole-screen spinner: while the user loads and while a lazy page's code arrives. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <main className="page-center" aria-busy="true">
      <Spinner label={label} />
    </main>
  );
}
