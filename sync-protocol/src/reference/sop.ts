// Internal SOPs (issue 42): the service's own standard operating procedures, written by
// administrators in the app and read by every member, offline too. Two append-only kinds
// (decision 080):
// - sopVersion: one published version of an SOP (title, category, body). The SOP is the
//   group of versions with one sopId (the first version's id); its current text is the
//   version with the highest revision. Nothing is overwritten, so every old version stays
//   readable and says who wrote it and when.
// - sopAcknowledgement: a member's "read and understood" of one version.
// Every approved user sees both (FamilyAccess.everyone); publishing needs the systemAdmin
// module (administrators by default, spec §6), acknowledging is anyone's.
import { z } from 'zod';
import '../zod-config';
import { defineMutator, type MutatorTx } from '../platform/mutator';
import { defineRecord, type FamilyAccess } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { ownedRecordSchema, uuidSchema } from '../platform/values';
import { sopBodySchema } from './sop-markup';

export const SOP_CATEGORIES = [
  'Clinical',
  'Operations',
  'Vehicles and equipment',
  'Communications',
  'Safety',
  'Administration',
] as const;

export const sopFieldsSchema = z.strictObject({
  title: z.string().trim().min(1, 'Title is required').max(120, 'At most 120 characters'),
  category: z.enum(SOP_CATEGORIES, { error: 'Choose a category' }),
  body: sopBodySchema,
});
export type SopFields = z.output<typeof sopFieldsSchema>;

export const SOP_ACCESS = {
  module: 'systemAdmin',
  logModule: 'systemAdmin',
  viewAction: 'view',
  everyone: ['see'],
} as const satisfies FamilyAccess;

export const SOP_ACK_ACCESS = {
  module: 'systemAdmin',
  logModule: 'systemAdmin',
  viewAction: 'view',
  everyone: ['see', 'create'],
} as const satisfies FamilyAccess;

export const sopVersionRecordSchema = ownedRecordSchema({
  sopId: uuidSchema,
  revision: z.number().int().min(1),
  title: z.string(),
  category: z.string(),
  body: z.string(),
});
export type SopVersionRecord = z.output<typeof sopVersionRecordSchema>;

export const sopAcknowledgementRecordSchema = ownedRecordSchema({
  sopVersionId: uuidSchema,
  sopId: uuidSchema,
  revision: z.number().int().min(1),
});
export type SopAcknowledgementRecord = z.output<typeof sopAcknowledgementRecordSchema>;

async function latestRevision(tx: MutatorTx, sopId: string): Promise<number> {
  const versions = await tx.list('sopVersion', 'sopId', sopId);
  return versions.reduce((max, v) => Math.max(max, Number(v.revision) || 0), 0);
}

/** A new SOP (sopId = id) or a new version of one; the revision is the next one there is. */
export const sopPublish = defineMutator({
  name: 'sopVersion.publish',
  label: 'SOP version',
  kind: 'sopVersion',
  args: sopFieldsSchema.extend({ id: uuidSchema, sopId: uuidSchema }),
  entityIds: (a) => [a.id, a.sopId],
  creates: true,
  async apply(tx, a) {
    tx.authorize('sopVersion', 'create');
    const content = { sopId: a.sopId, title: a.title, category: a.category, body: a.body };
    if ((await appendOnce(tx, 'sopVersion', a.id, content)) === 'exists') return;
    const latest = await latestRevision(tx, a.sopId);
    if (a.sopId !== a.id && latest === 0) throw tx.notFound('sopVersion', a.sopId);
    await tx.insert('sopVersion', { id: a.id, ...content, revision: latest + 1 });
    tx.note({ sopId: a.sopId, revision: latest + 1 });
  },
});

/** "Read and understood" of one version, once per member and version. */
export const sopAcknowledge = defineMutator({
  name: 'sopAcknowledgement.record',
  label: 'SOP acknowledgement',
  kind: 'sopAcknowledgement',
  args: z.strictObject({ id: uuidSchema, sopVersionId: uuidSchema }),
  entityIds: (a) => [a.id, a.sopVersionId],
  creates: true,
  async apply(tx, a) {
    tx.authorize('sopAcknowledgement', 'create');
    const version = await tx.require('sopVersion', a.sopVersionId, 'see');
    const content = {
      sopVersionId: a.sopVersionId,
      sopId: String(version.sopId),
      revision: Number(version.revision),
    };
    if ((await appendOnce(tx, 'sopAcknowledgement', a.id, content)) === 'exists') return;
    const mine = (await tx.list('sopAcknowledgement', 'sopVersionId', a.sopVersionId)).filter(
      (r) => r.userId === tx.mutation.actorUserId && r.id !== a.id,
    );
    if (mine.length > 0)
      throw new Rejection(
        RejectionCode.INVALID_STATE,
        'You have already acknowledged this version of the SOP.',
        { sopVersionId: a.sopVersionId },
      );
    await tx.insert('sopAcknowledgement', { id: a.id, ...content });
  },
});

export const sopVersionRecord = defineRecord({
  kind: 'sopVersion',
  label: 'SOP version',
  fieldLabels: { title: 'Title', category: 'Category', body: 'Text' },
  table: 'sopVersions',
  sqlTable: 'sop_versions',
  record: sopVersionRecordSchema,
  defaults: {},
  lww: false,
  access: SOP_ACCESS,
  sinceSchemaVersion: 6,
  device: { indexes: 'sopId' },
  mutators: [sopPublish],
});

export const sopAcknowledgementRecord = defineRecord({
  kind: 'sopAcknowledgement',
  label: 'SOP acknowledgement',
  table: 'sopAcknowledgements',
  sqlTable: 'sop_acknowledgements',
  record: sopAcknowledgementRecordSchema,
  defaults: {},
  lww: false,
  access: SOP_ACK_ACCESS,
  sinceSchemaVersion: 6,
  device: { indexes: 'sopVersionId, sopId, userId' },
  mutators: [sopAcknowledge],
});
