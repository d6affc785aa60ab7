// The entry: kept tiny so that the browser paints index.html's shell (styled by styles.css)
// before the app's code runs. The app itself (app/boot) downloads in parallel (index.html
// preloads it and the current page's route code) and starts after that first frame, so the
// first thing a phone shows never waits for React to evaluate and render.
import { captureInstallPrompt } from './lib/install-prompt';
import { showStartupFailure } from './lib/startup-failure';
import './styles.css';
import './components/ui/ui.css';

captureInstallPrompt();

let started = false;
function start(): void {
  if (started) return;
  started = true;
  import('./app/boot')
    .then(({ boot }) => boot())
    .catch((error: unknown) => showStartupFailure(error));
}

// After the next frame has been painted: the second animation frame comes only once the
// first (the shell) has been produced. A tab opened in the background runs no animation
// frames and paints nothing, so there it starts at once (and the timeout is a last resort).
if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start, 0)));
setTimeout(start, 1000);
