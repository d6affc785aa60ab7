// The API's environment, parsed once at start. Pure (no node: imports) so it can be unit
// tested anywhere; the API resolves paths and the generated session secret on top of it.
import { z } from 'zod';
import './zod-config';

/** Unset and empty mean the same: "use the default". */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const booleanFlag = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const normalised = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalised)) return true;
    if (['false', '0', 'no', 'off'].includes(normalised)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true or false, got '${v}'` });
    return z.NEVER;
  });

/** An origin is scheme://host[:port] with nothing after it; browsers send exactly that. */
export function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.pathname !== '/' && url.pathname !== '') return undefined;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return undefined;
  // Custom schemes (capacitor://localhost) have an opaque `origin`; build it ourselves.
  return `${url.protocol}//${url.host}`;
}

const originString = z.string().transform((v, ctx) => {
  const origin = parseOrigin(v.trim());
  if (origin === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `'${v}' is not an origin like https://rescue.example.org`,
    });
    return z.NEVER;
  }
  return origin;
});

/** '<max>/<seconds>', e.g. '10/900': at most 10 attempts per 15 minutes. */
const rateLimitRule = optionalString.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(v);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    ctx.addIssue({
      code: 'custom',
      message: `expected <max attempts>/<window seconds> like 10/900, got '${v}'`,
    });
    return z.NEVER;
  }
  return { max: Number(match[1]), windowSeconds: Number(match[2]) };
});

export const rawEnvSchema = z.object({
  PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
      .transform(Number)
      .refine((n) => n <= 65535, 'must be a whole number between 0 and 65535')
      .default(3000),
  ),
  HOST: optionalString.pipe(z.string().default('127.0.0.1')),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
  ),
  DATA_DIR: optionalString,
  WEB_DIST: optionalString,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  PUBLIC_ORIGIN: optionalString.pipe(originString.optional()),
  ALLOWED_ORIGINS: optionalString.transform((v, ctx) => {
    if (v === undefined) return [];
    const origins: string[] = [];
    for (const part of v.split(',')) {
      if (part.trim() === '') continue;
      const origin = parseOrigin(part.trim());
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `'${part.trim()}' is not an origin like capacitor://localhost`,
        });
        return z.NEVER;
      }
      origins.push(origin);
    }
    return origins;
  }),
  FIRST_USER_ADMIN: booleanFlag,
  TRUST_PROXY: booleanFlag,
  RATE_LIMIT_LOGIN_IP: rateLimitRule,
  RATE_LIMIT_LOGIN_EMAIL: rateLimitRule,
  RATE_LIMIT_REGISTER_IP: rateLimitRule,
  LOG_LEVEL: optionalString.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export interface Env {
  port: number;
  host: string;
  /** undefined: the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  /** As given; the API resolves the default (`data/` at the repository root) and relative paths. */
  dataDir: string | undefined;
  webDist: string | undefined;
  /** undefined only in embedded mode, where the API generates one and keeps it in `dataDir`. */
  sessionSecret: string | undefined;
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not given (then the 127.0.0.1 spelling is accepted too). */
  publicOriginDefaulted: boolean;
  allowedOrigins: string[];
  firstUserAdmin: boolean;
  trustProxy: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Overrides of the API's default rate limits; unset keeps the default. */
  rateLimits: {
    loginPerIp?: RateLimitRule;
    loginPerEmail?: RateLimitRule;
    registerPerIp?: RateLimitRule;
  };
}

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

export class EnvError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid environment variable ${variable}: ${detail}`);
    this.name = 'EnvError';
  }
}

/** Parses the process environment; throws an EnvError naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const known = Object.fromEntries(Object.keys(rawEnvSchema.shape).map((k) => [k, source[k]]));
  const result = rawEnvSchema.safeParse(known);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new EnvError(variable, issue?.message ?? 'invalid value');
  }
  const raw = result.data;
  return {
    port: raw.PORT,
    host: raw.HOST,
    databaseUrl: raw.DATABASE_URL,
    dataDir: raw.DATA_DIR,
    webDist: raw.WEB_DIST,
    sessionSecret: raw.SESSION_SECRET,
    publicOrigin: raw.PUBLIC_ORIGIN ?? `http://localhost:${String(raw.PORT)}`,
    publicOriginDefaulted: raw.PUBLIC_ORIGIN === undefined,
    allowedOrigins: raw.ALLOWED_ORIGINS,
    firstUserAdmin: raw.FIRST_USER_ADMIN ?? raw.DATABASE_URL === undefined,
    // The server speaks plain HTTP; an https public origin means a TLS proxy sits in front.
    trustProxy: raw.TRUST_PROXY ?? (raw.PUBLIC_ORIGIN ?? '').startsWith('https:'),
    logLevel: raw.LOG_LEVEL,
    rateLimits: {
      ...(raw.RATE_LIMIT_LOGIN_IP ? { loginPerIp: raw.RATE_LIMIT_LOGIN_IP } : {}),
      ...(raw.RATE_LIMIT_LOGIN_EMAIL ? { loginPerEmail: raw.RATE_LIMIT_LOGIN_EMAIL } : {}),
      ...(raw.RATE_LIMIT_REGISTER_IP ? { registerPerIp: raw.RATE_LIMIT_REGISTER_IP } : {}),
    },
  };
}
