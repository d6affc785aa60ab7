// The stand-in push service (../push-service.ts) as its own process, for the notification
// benchmark (tests/bench/notifications-send.ts; its work, verifying and decrypting every
// push, then does not count in the API server's memory) and the push end-to-end spec
// (tests/e2e/notifications-push.spec.ts). Prints {"url": ...} and runs until
// it is sent SIGTERM.
import { startPushService } from '../push-service';

const service = await startPushService();
process.stdout.write(`${JSON.stringify({ url: service.url })}\n`);
process.once('SIGTERM', () => {
  void service.close().then(() => process.exit(0));
});
