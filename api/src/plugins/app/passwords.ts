// Password hashing with argon2id (the library's default algorithm). Production parameters
// follow OWASP's argon2id minimum: 19 MiB memory, 2 iterations, 1 lane. Tests may pass
// cheaper parameters through AppOptions.passwordHashing, and only tests do.
import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';

export interface PasswordHashingParams {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export const PRODUCTION_HASHING: PasswordHashingParams = {
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a malformed stored hash. */
  verify(storedHash: string, password: string): Promise<boolean>;
  /**
   * Spends the same time as a real verification; used when the email is unknown so the
   * response time does not tell whether an account exists.
   */
  verifyDummy(password: string): Promise<void>;
}

export async function createPasswordHasher(
  params: PasswordHashingParams = PRODUCTION_HASHING,
): Promise<PasswordHasher> {
  const dummyHash = await hash(randomBytes(16).toString('hex'), params);
  return {
    hash: (password) => hash(password, params),
    async verify(storedHash, password) {
      try {
        return await verify(storedHash, password);
      } catch {
        return false;
      }
    },
    async verifyDummy(password) {
      await verify(dummyHash, password).catch(() => false);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: PasswordHasher;
  }
}

export const passwordsPlugin = fp<{ params?: PasswordHashingParams | undefined }>(
  async (fastify, options) => {
    fastify.decorate('passwords', await createPasswordHasher(options.params ?? PRODUCTION_HASHING));
  },
  { name: 'passwords' },
);
