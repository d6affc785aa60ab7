// The sign-in form's validation and the login answer's schema, loaded when first needed (the
// form renders without zod; see sign-in-form.tsx). The same schema as the API's.
import { zodResolver } from '@hookform/resolvers/zod';
import { currentUserResponseSchema, loginSchema } from '@rescuelog/sync-protocol/accounts/users';

export const signInResolver = zodResolver(loginSchema);
export { currentUserResponseSchema };
