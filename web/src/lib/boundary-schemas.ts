// The zod schemas the app's first screens parse API answers and stored copies with, in a chunk
// of their own (lib/api-client.ts `boundarySchemas()`): zod is then not part of the code the
// first render waits for (the sign-in page never needs it before a submit), and every answer
// is still parsed with the same schema before it is used.
import { z } from 'zod';

export {
  currentUserResponseSchema,
  sessionResponseSchema,
} from '@rescuelog/sync-protocol/accounts/users';
export { publicSettingsResponseSchema } from '@rescuelog/sync-protocol/settings';
export { apiErrorBodySchema } from '@rescuelog/sync-protocol/errors';

export const logoutResponseSchema = z.object({ message: z.string() }).partial();
