// One MSW server for the component tests: HTTP is stubbed at the network boundary, never by
// replacing fetch. Tests add handlers with server.use(...); unknown requests fail the test.
import { setupServer } from 'msw/node';

export const server = setupServer();
