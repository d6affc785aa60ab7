// The daily stock notice's clock (services/inventory-alerts-service.ts): once the server is
// ready it looks every hour whether today's notice is due (it is sent once per day of the
// service's time zone, whichever instance looks first); it stops before the database closes.
import fp from 'fastify-plugin';
import { sendDailyStockAlert } from '../../services/inventory-alerts-service';

const EVERY_MS = 60 * 60_000;

export const inventoryAlertsPlugin = fp(
  async (fastify) => {
    let timer: NodeJS.Timeout | null = null;
    let running: Promise<unknown> = Promise.resolve();
    const look = () => {
      running = fastify.settings
        .get()
        .then((settings) => sendDailyStockAlert(fastify.db, new Date(), settings))
        .catch((error: unknown) => fastify.log.error({ err: error }, 'daily stock notice failed'));
    };
    fastify.addHook('onReady', async () => {
      timer = setInterval(look, EVERY_MS);
      timer.unref();
    });
    fastify.addHook('preClose', async () => {
      if (timer) clearInterval(timer);
      await running;
    });
  },
  { name: 'inventory-alerts', dependencies: ['database', 'settings'] },
);
