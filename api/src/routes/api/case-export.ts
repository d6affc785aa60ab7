// GET /api/cases/:caseId/fhir -> the case as a FHIR R4 Bundle (application/fhir+json), built
// from the server's rows by the same function the web app uses offline
// (sync-protocol/src/cases/fhir.ts; decision 008). :caseId is the human case number. Who may:
// the responder who logged it, or anyone whose casesLogged entry allows view (the rule pull
// uses, platform/access.ts canSeeAll). Every export is audited as `case.export`; a refusal as
// `access.denied` (both carry details.caseId, so they show in the case's access history).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildFhirBundle } from '@rescuelog/sync-protocol/cases/fhir';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { humanIdSchema } from '@rescuelog/sync-protocol/platform/human-id';
import { ApiError, parseInput, unauthenticated } from '../../lib/api-error';
import { readCaseForExport } from '../../services/case-export-service';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { CASE_ACCESS } from '@rescuelog/sync-protocol/cases/case';

export const FHIR_JSON = 'application/fhir+json';
export const CASE_NOT_FOUND_MESSAGE = 'Case not found';
export const CASE_EXPORT_FORBIDDEN_MESSAGE = 'You do not have permission to see this case.';

const paramsSchema = z.strictObject({ caseId: humanIdSchema('C') });

export async function caseExportRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/cases/:caseId/fhir', async (request, reply) => {
    const user = request.user;
    if (!user) throw unauthenticated();
    const { caseId } = parseInput(paramsSchema, request.params);

    const found = await readCaseForExport(fastify.db, caseId);
    if (!found || found.deleted)
      throw new ApiError(404, ErrorCode.NOT_FOUND, CASE_NOT_FOUND_MESSAGE);
    const { record } = found;
    if (record.userId !== user.id && !canSeeAll(user, CASE_ACCESS)) {
      throw await fastify.deny(request, ErrorCode.FORBIDDEN, CASE_EXPORT_FORBIDDEN_MESSAGE, {
        caseId: record.id,
        humanId: record.caseId,
        attempted: 'case.export',
        module: 'casesLogged',
        action: 'view',
      });
    }

    const bundle = buildFhirBundle({ ...found.input, generatedAt: new Date() });
    await fastify.audit.record(request, {
      action: 'case.export',
      outcome: 'success',
      entityType: 'case',
      entityId: record.id,
      details: {
        caseId: record.id,
        humanId: record.caseId,
        source: 'server',
        detail: 'fhir-r4',
        resources: bundle.entry?.length ?? 0,
      },
    });
    return reply
      .type(FHIR_JSON)
      .header('content-disposition', `attachment; filename="${record.caseId}.fhir.json"`)
      .send(JSON.stringify(bundle));
  });
}
