// File uploads (spec §5 limits, §7 calls): POST /api/objects/upload gives a one-time URL,
// a PUT of the bytes to it stores the file, PUT /api/user/documents records the URLs.
import { z } from 'zod';
import '../zod-config';

export const MAX_UPLOAD_BYTES = 10_485_760;
export const MAX_ID_DOCUMENTS = 1;
export const MAX_CERTIFICATIONS = 5;

/** What a document may be. The server checks the bytes, not the name or the header. */
export const ALLOWED_UPLOAD_TYPES = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
} as const;
export type AllowedUploadType = keyof typeof ALLOWED_UPLOAD_TYPES;
export const ALLOWED_UPLOAD_ACCEPT = Object.keys(ALLOWED_UPLOAD_TYPES).join(',');

export const UPLOAD_MESSAGES = {
  tooLarge: 'File is larger than 10 MiB',
  typeNotAllowed: 'Only PDF, JPEG, PNG or WebP files can be uploaded',
  tooManyIdDocuments: 'Only 1 ID document can be uploaded',
  tooManyCertifications: 'At most 5 certifications can be uploaded',
  urlInvalid: 'This upload link is invalid or has expired',
  quotaAccount:
    'Your account has reached its upload limit. Files you did not keep are removed within a day; try again then or ask an administrator.',
  quotaAddress: 'Too much has been uploaded from your network recently. Please try again later.',
  quotaPending:
    'New registrations cannot take more documents right now. Register without them and add them later, or try again later.',
} as const;

/** A stored object's URL: always a path served by this API, never an outside address. */
export const objectUrlSchema = z
  .string()
  .regex(/^\/api\/objects\/[A-Za-z0-9_-]{16,64}\.(pdf|jpg|png|webp)$/, 'Invalid document URL');

export const uploadUrlResponseSchema = z.object({
  uploadURL: z.string(),
  expiresAt: z.string(),
});
export const uploadStoredResponseSchema = z.object({ url: objectUrlSchema });

/**
 * PUT /api/user/documents. `certificationsUrl` holds up to five URLs; it is stored in the
 * single spec column as a JSON array string (read it back with parseCertificationUrls).
 */
export const documentsSchema = z
  .strictObject({
    idDocumentUrl: objectUrlSchema.nullable().optional(),
    // One URL or a list of them; a single string is read as a list of one.
    certificationsUrl: z
      .preprocess(
        (v) => (typeof v === 'string' ? [v] : v),
        z
          .array(objectUrlSchema)
          .max(MAX_CERTIFICATIONS, UPLOAD_MESSAGES.tooManyCertifications)
          .nullable(),
      )
      .optional(),
  })
  .refine((v) => v.idDocumentUrl !== undefined || v.certificationsUrl !== undefined, {
    message: 'No documents given',
  });
export type DocumentsInput = z.input<typeof documentsSchema>;

export function serializeCertificationUrls(list: string[] | null): string | null {
  if (list === null) return null;
  return list.length === 0 ? null : JSON.stringify(list);
}

export function parseCertificationUrls(stored: string | null): string[] {
  if (!stored) return [];
  if (!stored.startsWith('[')) return [stored];
  const parsed = z.array(z.string()).safeParse(JSON.parse(stored));
  return parsed.success ? parsed.data : [];
}

/** GET /api/admin/users/:id/documents: what a user has recorded, for the administrator to review. */
export const userDocumentSchema = z.object({
  kind: z.enum(['idDocument', 'certification']),
  url: z.string(),
  contentType: z.string().nullable(),
  sizeBytes: z.number().int().nonnegative().nullable(),
  uploadedAt: z.string().nullable(),
});
export type UserDocument = z.output<typeof userDocumentSchema>;
export const userDocumentsResponseSchema = z.object({ documents: z.array(userDocumentSchema) });
