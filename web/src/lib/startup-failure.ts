// Spec §8 "Startup failure: 'App Loading Error' with the message". Drawn with plain DOM because
// when the app's code cannot load (a missing chunk offline, a broken update) React is not
// there to render it; a Reload button lets the user try again instead of facing a frozen shell.
export function showStartupFailure(
  error: unknown,
  container: HTMLElement | null = document.getElementById('root'),
): void {
  if (!container) return;
  const message = error instanceof Error ? error.message : String(error);
  // The same structure and classes as components/ui/status-page.tsx, so it looks the same.
  const main = document.createElement('main');
  main.className = 'page-center';
  const card = document.createElement('section');
  card.className = 'card status-card';
  card.setAttribute('aria-labelledby', 'status-title');
  const title = document.createElement('h1');
  title.id = 'status-title';
  title.className = 'status-card__title';
  title.textContent = 'App Loading Error';
  const text = document.createElement('p');
  text.className = 'status-card__body';
  text.textContent = message;
  const actions = document.createElement('div');
  actions.className = 'status-card__actions';
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.className = 'button button--primary button--block';
  reload.textContent = 'Reload';
  reload.addEventListener('click', () => window.location.reload());
  actions.append(reload);
  card.append(title, text, actions);
  main.append(card);
  container.replaceChildren(main);
}
