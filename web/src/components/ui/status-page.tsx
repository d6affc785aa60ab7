import type { ReactNode } from 'react';

interface StatusPageProps {
  icon: ReactNode;
  title: string;
  tone?: 'info' | 'warning' | 'danger';
  children: ReactNode;
  actions: ReactNode;
}

/** A full-screen message with one heading and its way out: guard states, 404, "not yet". */
export function StatusPage({ icon, title, tone = 'info', children, actions }: StatusPageProps) {
  return (
    <main className="page-center">
      <section className="card status-card" aria-labelledby="status-title">
        <div className={`status-card__icon status-card__icon--${tone}`} aria-hidden="true">
          {icon}
        </div>
        <h1 id="status-title" className="status-card__title">
          {title}
        </h1>
        <div className="status-card__body">{children}</div>
        <div className="status-card__actions">{actions}</div>
      </section>
    </main>
  );
}
