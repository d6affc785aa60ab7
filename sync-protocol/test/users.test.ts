import { describe, expect, it } from 'vitest';
import { loginSchema, registerSchema, userUpdateSchema } from '../src/accounts/users';
import { roleCreateSchema } from '../src/accounts/roles';
import {
  notificationCreateSchema,
  PUSH_SUBSCRIPTION_MESSAGES,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
} from '../src/notifications';
import {
  documentsSchema,
  parseCertificationUrls,
  serializeCertificationUrls,
} from '../src/accounts/uploads';
import { validationErrorBody } from '../src/errors';
import type { z } from 'zod';

const valid = {
  email: 'Thandi@Example.org ',
  password: 'secret1',
  fullName: 'Thandi Nkosi',
  qualifications: 'Nurse',
};

function messages(schema: z.ZodType, input: unknown): Record<string, string[] | undefined> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return validationErrorBody(result.error.issues).fieldErrors ?? {};
}

describe('registerSchema (spec §5 new user)', () => {
  it('normalises a valid registration', () => {
    const data = registerSchema.parse({ ...valid, callSign: '  ', contactNumber: '082 555 0101' });
    expect(data.email).toBe('thandi@example.org');
    expect(data.callSign).toBeNull();
    expect(data.contactNumber).toBe('082 555 0101');
  });
  it('gives the spec messages', () => {
    expect(messages(registerSchema, { ...valid, email: 'not-an-email' }).email).toEqual([
      'Valid email address is required',
    ]);
    expect(messages(registerSchema, { ...valid, email: undefined }).email).toEqual([
      'Valid email address is required',
    ]);
    expect(messages(registerSchema, { ...valid, password: '12345' }).password).toEqual([
      'Password must be at least 6 characters',
    ]);
    expect(messages(registerSchema, { ...valid, fullName: 'A' }).fullName).toEqual([
      'Full name is required',
    ]);
    expect(messages(registerSchema, { ...valid, fullName: '   ' }).fullName).toEqual([
      'Full name is required',
    ]);
  });
  it('requires qualifications and a description when Other is chosen', () => {
    expect(
      messages(registerSchema, { ...valid, qualifications: undefined }).qualifications,
    ).toEqual(['Qualifications are required']);
    expect(
      messages(registerSchema, { ...valid, qualifications: 'Other' }).qualificationsOther,
    ).toEqual(['Please describe your qualifications']);
    expect(
      registerSchema.safeParse({
        ...valid,
        qualifications: 'Other',
        qualificationsOther: 'Lifeguard',
      }).success,
    ).toBe(true);
  });
  it('refuses unknown keys such as role or status, so a registrant cannot promote themselves', () => {
    expect(registerSchema.safeParse({ ...valid, role: 'administrator' }).success).toBe(false);
    expect(registerSchema.safeParse({ ...valid, status: 'approved' }).success).toBe(false);
  });
});

describe('loginSchema', () => {
  it('requires a password of at least one character', () => {
    expect(messages(loginSchema, { email: 'a@b.co', password: '' }).password).toEqual([
      'Password is required',
    ]);
    expect(messages(loginSchema, { email: 'a@b.co' }).password).toEqual(['Password is required']);
    expect(messages(loginSchema, { email: 'nope', password: 'x' }).email).toEqual([
      'Valid email address is required',
    ]);
  });
});

describe('userUpdateSchema', () => {
  it('makes every field optional and has no password', () => {
    expect(userUpdateSchema.safeParse({}).success).toBe(true);
    expect(userUpdateSchema.safeParse({ password: 'whatever' }).success).toBe(false);
    expect(messages(userUpdateSchema, { fullName: 'x' }).fullName).toEqual([
      'Full name is required',
    ]);
  });
});

describe('roleCreateSchema', () => {
  it('gives the spec messages', () => {
    expect(messages(roleCreateSchema, { name: '', displayName: 'X' }).name).toContain(
      'Role name is required',
    );
    expect(messages(roleCreateSchema, { name: 'crew', displayName: '' }).displayName).toEqual([
      'Display name is required',
    ]);
    expect(roleCreateSchema.parse({ name: 'crew-lead', displayName: 'Crew lead' })).toMatchObject({
      permissions: {},
      description: null,
    });
  });
});

describe('notificationCreateSchema', () => {
  it('gives the spec messages and defaults', () => {
    expect(messages(notificationCreateSchema, { title: '', message: 'x' }).title).toEqual([
      'Title is required',
    ]);
    expect(
      messages(notificationCreateSchema, { title: 'x'.repeat(101), message: 'x' }).title,
    ).toEqual(['Title too long']);
    expect(messages(notificationCreateSchema, { title: 'x', message: '' }).message).toEqual([
      'Message is required',
    ]);
    expect(
      messages(notificationCreateSchema, { title: 'x', message: 'x'.repeat(501) }).message,
    ).toEqual(['Message too long']);
    expect(
      messages(notificationCreateSchema, { title: 'x', message: 'y', type: 'party' }).type,
    ).toEqual(['Invalid enum value']);
    expect(notificationCreateSchema.parse({ title: 'x', message: 'y' })).toMatchObject({
      type: 'general',
      priority: 'normal',
    });
  });
  it('checks push subscriptions', () => {
    expect(
      pushSubscriptionSchema.safeParse({ endpoint: 'not a url', p256dh: 'a', auth: 'b' }).success,
    ).toBe(false);
    expect(
      messages(pushSubscriptionSchema, {
        endpoint: 'https://push.example/x',
        p256dh: '',
        auth: 'b',
      }).p256dh,
    ).toEqual([PUSH_SUBSCRIPTION_MESSAGES.keys]);
    expect(messages(pushSubscriptionSchema, {}).endpoint).toEqual([
      PUSH_SUBSCRIPTION_MESSAGES.endpoint,
    ]);
    expect(
      messages(pushSubscriptionSchema, { endpoint: `https://p.example/${'x'.repeat(2048)}` })
        .endpoint,
    ).toEqual([PUSH_SUBSCRIPTION_MESSAGES.endpointTooLong]);
  });
});

describe('documentsSchema', () => {
  const url = '/api/objects/abcdefghijklmnop1234.pdf';
  it('accepts only our own object URLs, at most five certifications', () => {
    expect(documentsSchema.safeParse({ idDocumentUrl: url }).success).toBe(true);
    expect(documentsSchema.safeParse({ idDocumentUrl: 'https://evil.example/x.pdf' }).success).toBe(
      false,
    );
    expect(documentsSchema.safeParse({ certificationsUrl: Array(5).fill(url) }).success).toBe(true);
    expect(
      messages(documentsSchema, { certificationsUrl: Array(6).fill(url) }).certificationsUrl,
    ).toEqual(['At most 5 certifications can be uploaded']);
  });
  it('round-trips certification URLs through the single column', () => {
    expect(parseCertificationUrls(serializeCertificationUrls([url, url]))).toEqual([url, url]);
    expect(parseCertificationUrls(url)).toEqual([url]);
    expect(serializeCertificationUrls([])).toBeNull();
  });
});

describe('generic messages (spec §5)', () => {
  it('uses the zod v3 wording the spec lists', () => {
    // A field without a message of its own (the push subscription's have the contract's).
    expect(messages(pushUnsubscribeSchema, {}).endpoint).toEqual(['Required']);
  });
});
