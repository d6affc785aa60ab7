// The baseline for api-user-vs-bare: a bare Fastify hello-world route, in its own process
// like the real server, listening on the port given in PORT. Prints "listening" when up.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
