// `pnpm create-admin -- --email chief@example.org --name "Station Chief"`
// Creates an approved administrator, or promotes (and approves) an existing account with that
// email; works on the embedded database and on PostgreSQL alike. The password of a new
// account comes from ADMIN_PASSWORD or, on a terminal, from a hidden prompt; it is never a
// command-line argument (those end up in shell history and `ps`).
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createDatabase } from '@rescuelog/db/connect';
import { EnvError, parseEnv } from '@rescuelog/sync-protocol/server/env';
import { registerSchema } from '@rescuelog/sync-protocol/accounts/users';
import { serverNewPasswordSchema } from '@rescuelog/sync-protocol/accounts/password-policy';
import { resolveDataDir } from '../config';
import { createPasswordHasher } from '../plugins/app/passwords';
import {
  findUserByEmail,
  insertUser,
  updateUserRoleAndStatus,
} from '../repositories/users-repository';

const USAGE = `Usage: create-admin --email <email> --name "<full name>"
  The password of a new account is read from ADMIN_PASSWORD, or asked for on the terminal.
  An existing account with that email is promoted to an approved administrator (password unchanged).`;

class UsageError extends Error {}

const argsSchema = z.object({
  email: registerSchema.shape.email,
  fullName: registerSchema.shape.fullName,
});
// The same rules as registration, common passwords refused.
const passwordSchema = serverNewPasswordSchema;

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const { stdin, stdout } = process;
  if (!stdin.isTTY) {
    return Promise.reject(
      new UsageError('No terminal to ask for the password: set ADMIN_PASSWORD.'),
    );
  }
  stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003' || ch === '\u0004') {
          finish();
          reject(new UsageError('Cancelled.'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(): Promise<string> {
  const fromEnv = process.env.ADMIN_PASSWORD;
  const password =
    fromEnv !== undefined && fromEnv !== ''
      ? fromEnv
      : await promptHidden('Password for the new administrator: ');
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) throw new UsageError(firstMessage(parsed.error));
  if (fromEnv === undefined || fromEnv === '') {
    const again = await promptHidden('Repeat the password: ');
    if (again !== password) throw new UsageError('The passwords do not match.');
  }
  return parsed.data;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const args = argsSchema.safeParse({ email: values.email, fullName: values.name });
  if (!args.success) throw new UsageError(`${firstMessage(args.error)}\n${USAGE}`);
  const { email, fullName } = args.data;
  const fromEnv = process.env.ADMIN_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') {
    // Say so before the (slow) database start.
    const checked = passwordSchema.safeParse(fromEnv);
    if (!checked.success) throw new UsageError(firstMessage(checked.error));
  }

  const env = parseEnv(process.env);
  const handle = await createDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: resolveDataDir(env),
    migrate: true,
  });
  try {
    const existing = await findUserByEmail(handle.db, email);
    if (existing) {
      await updateUserRoleAndStatus(handle.db, existing.id, {
        role: 'administrator',
        status: 'approved',
      });
      await handle.db
        .insertInto('auditLog')
        .values({
          actorUserId: null,
          action: 'user.promote_admin',
          outcome: 'success',
          entityType: 'user',
          entityId: String(existing.id),
          details: { via: 'cli', previousRole: existing.role, previousStatus: existing.status },
        })
        .execute();
      console.log(`${email} is now an approved administrator (password unchanged).`);
      return;
    }
    const password = await readPassword();
    const hasher = await createPasswordHasher();
    const user = await insertUser(handle.db, {
      email,
      fullName,
      passwordHash: await hasher.hash(password),
      role: 'administrator',
      status: 'approved',
    });
    await handle.db
      .insertInto('auditLog')
      .values({
        actorUserId: null,
        action: 'user.create_admin',
        outcome: 'success',
        entityType: 'user',
        entityId: String(user.id),
        details: { via: 'cli' },
      })
      .execute();
    console.log(`Created the approved administrator ${email}.`);
  } finally {
    await handle.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof EnvError) console.error(error.message);
    else
      console.error(
        `create-admin failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    process.exit(1);
  },
);
