// The audit log service: appends who did what, when, from where, and the outcome. Every
// sign-in, failed sign-in, registration, logout and permission denial goes through it, and
// so must approvals, role changes and uploads (other routes call `fastify.audit.record`).
// The table is append-only (a trigger refuses UPDATE and DELETE).
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { AuditOutcome, JsonValue } from '@rescuelog/db/schema';

export interface AuditEvent {
  /** Dotted verb, e.g. 'auth.login', 'auth.login_failed', 'user.approve', 'access.denied'. */
  action: string;
  outcome: AuditOutcome;
  /** Defaults to the signed-in user of the request, if any. */
  actorUserId?: number | null;
  entityType?: string | null;
  entityId?: string | number | null;
  details?: Record<string, JsonValue>;
}

export interface AuditService {
  /**
   * Appends one entry. With a request, the actor (when not given), IP and user agent come
   * from it. A failure to write is logged and rethrown: an action that must be audited
   * should not silently succeed without its record.
   */
  record(request: FastifyRequest | null, event: AuditEvent): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditService;
  }
}

const USER_AGENT_MAX = 512;

export const auditPlugin = fp(
  async (fastify) => {
    fastify.decorate('audit', {
      async record(request, event) {
        const userAgent = request?.headers['user-agent'];
        try {
          await fastify.db
            .insertInto('auditLog')
            .values({
              actorUserId:
                event.actorUserId !== undefined ? event.actorUserId : (request?.user?.id ?? null),
              action: event.action,
              outcome: event.outcome,
              entityType: event.entityType ?? null,
              entityId:
                event.entityId === undefined || event.entityId === null
                  ? null
                  : String(event.entityId),
              ip: request?.ip ?? null,
              userAgent: typeof userAgent === 'string' ? userAgent.slice(0, USER_AGENT_MAX) : null,
              details: event.details ?? {},
            })
            .execute();
        } catch (error) {
          fastify.log.error({ err: error, action: event.action }, 'audit log write failed');
          throw error;
        }
      },
    } satisfies AuditService);
  },
  { name: 'audit', dependencies: ['database', 'authentication'] },
);
