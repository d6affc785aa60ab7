// The spec's generic validation messages (§5: 'Required', 'Invalid input', 'Invalid email',
// 'Invalid enum value', 'String must contain at least N character(s)'). Every schema module
// imports this file for its side effect, so the web form and the API say the same thing.
// Messages written on a schema itself (the spec's field messages) take precedence.
//
// It also decides how zod parses objects. Zod compiles a fast parser per object schema with
// `new Function` after probing whether it may; in the browser and the service worker the
// app's Content Security Policy (script-src without 'unsafe-eval') refuses that, and the
// browser reports every probe as a violation, on every page. There zod runs jitless: set
// before any object schema is made, which is why every schema module imports this file
// first. The server keeps the compiled parsers (about 5x faster on a push batch).
import { z } from 'zod';

export function specErrorMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required' : 'Invalid input';
    case 'invalid_format':
      return issue.format === 'email'
        ? 'Invalid email'
        : issue.format === 'url'
          ? 'Invalid url'
          : 'Invalid input';
    case 'invalid_value':
      return 'Invalid enum value';
    case 'too_small':
      if (issue.origin === 'string')
        return `String must contain at least ${String(issue.minimum)} character(s)`;
      if (issue.origin === 'array')
        return `Array must contain at least ${String(issue.minimum)} element(s)`;
      return `Number must be greater than or equal to ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string')
        return `String must contain at most ${String(issue.maximum)} character(s)`;
      if (issue.origin === 'array')
        return `Array must contain at most ${String(issue.maximum)} element(s)`;
      return `Number must be less than or equal to ${String(issue.maximum)}`;
    case 'unrecognized_keys':
      return `Unrecognized key(s) in object: ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    default:
      return 'Invalid input';
  }
}

/** A browser page or worker: the app's CSP forbids `new Function` there (decision 059). */
const host = globalThis as { document?: unknown; WorkerGlobalScope?: unknown };
export const UNDER_CONTENT_SECURITY_POLICY =
  host.document !== undefined || host.WorkerGlobalScope !== undefined;

z.config({ customError: specErrorMessage, jitless: UNDER_CONTENT_SECURITY_POLICY });
