// One MSW server for the component tests: HTTP is stubbed at the network boundary, never by
// replacing fetch. Tests add handlers with server.use(...); unknown requests fail the test.
// The defaults answer what every signed-in screen may ask in passing: the service settings
// (defaults unless a test says otherwise) and an administrator dashboard's open conflicts.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { DEFAULT_SETTINGS, toPublicSettings } from '@rescuelog/sync-protocol/settings';

export const server = setupServer(
  http.get('/api/admin/conflicts', () => HttpResponse.json({ conflicts: [] })),
  http.get('/api/settings', () =>
    HttpResponse.json({ settings: toPublicSettings(DEFAULT_SETTINGS) }),
  ),
);
