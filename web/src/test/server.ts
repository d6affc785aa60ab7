// One MSW server for the component tests: HTTP is stubbed at the network boundary, never by
// replacing fetch. Tests add handlers with server.use(...); unknown requests fail the test.
// The service settings every signed-in screen reads answer with the defaults unless a test
// says otherwise.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { DEFAULT_SETTINGS, toPublicSettings } from '@rescuelog/sync-protocol/settings';

export const server = setupServer(
  http.get('/api/settings', () =>
    HttpResponse.json({ settings: toPublicSettings(DEFAULT_SETTINGS) }),
  ),
);
