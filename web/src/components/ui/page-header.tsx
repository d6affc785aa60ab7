import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * The header of a screen below the dashboard: the way back, the screen's title, and its own
 * actions at the end. The title takes the room between them, so it starts right after the
 * way back on every screen, whether or not it has actions (issue 37: it used to sit centred
 * on one screen and right-aligned on others).
 */
export function PageHeader({
  title,
  back = { to: '/', label: 'Back to Home' },
  actions,
}: {
  title: string;
  back?: { to: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <header className="app-header">
      <div className="app-header__bar">
        <Link to={back.to} className="icon-button icon-button--on-dark" aria-label={back.label}>
          <ArrowLeft aria-hidden="true" size={24} />
        </Link>
        <h1 className="app-header__title page-header__title">{title}</h1>
        {actions ? <div className="app-header__actions">{actions}</div> : null}
      </div>
    </header>
  );
}
