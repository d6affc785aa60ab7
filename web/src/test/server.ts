// One MSW server for the component tests: HTTP is stubbed at the network boundary, never by
// replacing fetch. Tests add handlers with server.use(...); unknown requests fail the test.
// The defaults answer what every signed-in screen may ask in passing (an administrator's
// dashboard counts open conflicts).
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

export const server = setupServer(
  http.get('/api/admin/conflicts', () => HttpResponse.json({ conflicts: [] })),
);
