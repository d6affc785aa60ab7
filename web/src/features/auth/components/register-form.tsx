import { zodResolver } from '@hookform/resolvers/zod';
import {
  QUALIFICATIONS,
  currentUserResponseSchema,
  registerResponseSchema,
  registerSchema,
  type RegisterData,
  type RegisterInput,
  type User,
} from '@rescuelog/sync-protocol/accounts/users';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { SelectField, TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody, sendJson } from '@/lib/api-client';
import { setCurrentUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { uploadPickedDocuments } from '../api/upload-documents';
import { useDocumentUploads } from '../stores/document-uploads';
import { DocumentPicker } from './document-picker';

type Phase = 'idle' | 'registering' | 'uploading' | 'received';

const FORM_FIELDS = new Set<string>([
  'email',
  'password',
  'fullName',
  'callSign',
  'contactNumber',
  'idNumber',
  'qualifications',
  'qualificationsOther',
  'nextOfKinName',
  'nextOfKinRelationship',
  'nextOfKinContact',
]);

/**
 * The Register tab. The server answers a registration the same way whether the email is new
 * or already has an account, and signs nobody in (decision 027); the form then signs in with
 * the same email and password. When that fails, the email may belong to someone else, so the
 * form says only what is true either way and points to Sign In.
 */
export function RegisterForm({ onGoToSignIn }: { onGoToSignIn: () => void }) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>('idle');
  const hasDocuments = useDocumentUploads((state) => state.entries.length > 0);
  const form = useForm<RegisterInput, unknown, RegisterData>({
    resolver: zodResolver(registerSchema),
    defaultValues: {
      email: '',
      password: '',
      fullName: '',
      callSign: '',
      contactNumber: '',
      idNumber: '',
      qualificationsOther: '',
      nextOfKinName: '',
      nextOfKinRelationship: '',
      nextOfKinContact: '',
    },
  });
  const { errors } = form.formState;
  const qualification = useWatch({ control: form.control, name: 'qualifications' });

  async function onSubmit(values: RegisterData) {
    setPhase('registering');
    let message: string;
    try {
      const body = {
        ...values,
        qualificationsOther: values.qualifications === 'Other' ? values.qualificationsOther : null,
      };
      message = (await sendJson('POST', '/api/register', registerResponseSchema, body)).message;
    } catch (error) {
      const fieldErrors = parseErrorBody(error)?.fieldErrors ?? {};
      for (const [field, messages] of Object.entries(fieldErrors)) {
        if (FORM_FIELDS.has(field) && messages[0])
          form.setError(field as Path<RegisterInput>, { message: messages[0] });
      }
      toast({
        title: 'Registration failed',
        description: errorMessage(error) || 'Unable to create account',
        variant: 'destructive',
      });
      setPhase('idle');
      return;
    }
    toast({
      title: 'Registration successful',
      description: message || 'Your account has been created and is pending approval',
    });
    let user: User;
    try {
      const signedIn = await sendJson('POST', '/api/login', currentUserResponseSchema, {
        email: values.email,
        password: values.password,
      });
      user = signedIn.user;
    } catch {
      setPhase('received');
      return;
    }
    // The account exists from here on: a failed upload is reported, never undoes it.
    if (useDocumentUploads.getState().entries.length > 0) {
      setPhase('uploading');
      try {
        user = (await uploadPickedDocuments()) ?? user;
        toast({ title: 'Documents uploaded', description: 'Your documents were sent for review.' });
      } catch (error) {
        toast({
          title: 'Upload failed',
          description: `${errorMessage(error) || 'Failed to upload documents'}. You can retry from the next screen.`,
          variant: 'destructive',
        });
      }
    }
    setPhase('idle');
    // Signed in as the new (pending) user: the guard shows the pending screen.
    setCurrentUser(queryClient, user);
  }

  if (phase === 'received') {
    return (
      <div className="form" role="status">
        <h3>Registration received</h3>
        <p>
          If this email address is new to us, your account has been created and is pending approval:
          sign in with it to continue
          {hasDocuments ? ' and to send your documents' : ''}.
        </p>
        <p>
          If the address already has an account, we have let its owner know. Sign in with that
          account&apos;s password instead.
        </p>
        <button
          type="button"
          className="button button--primary button--block"
          onClick={onGoToSignIn}
        >
          Go to Sign In
        </button>
      </div>
    );
  }

  const busy = phase !== 'idle';
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit(onSubmit)} aria-busy={busy}>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        error={errors.email?.message}
        {...form.register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 6 characters, and not a common password."
        error={errors.password?.message}
        {...form.register('password')}
      />
      <TextField
        label="Full name"
        autoComplete="name"
        required
        error={errors.fullName?.message}
        {...form.register('fullName')}
      />
      <TextField
        label="Call sign"
        autoComplete="off"
        error={errors.callSign?.message}
        {...form.register('callSign')}
      />
      <TextField
        label="Contact number"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        error={errors.contactNumber?.message}
        {...form.register('contactNumber')}
      />
      <TextField
        label="ID number"
        autoComplete="off"
        error={errors.idNumber?.message}
        {...form.register('idNumber')}
      />
      <SelectField
        label="Qualifications"
        required
        error={errors.qualifications?.message}
        defaultValue=""
        {...form.register('qualifications')}
      >
        <option value="" disabled>
          Select your qualification
        </option>
        {QUALIFICATIONS.map((q) => (
          <option key={q} value={q}>
            {q}
          </option>
        ))}
      </SelectField>
      {qualification === 'Other' ? (
        <TextField
          label="Other qualifications"
          required
          error={errors.qualificationsOther?.message}
          {...form.register('qualificationsOther')}
        />
      ) : null}
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Next of kin</legend>
        <TextField
          label="Next of kin name"
          autoComplete="off"
          error={errors.nextOfKinName?.message}
          {...form.register('nextOfKinName')}
        />
        <TextField
          label="Relationship"
          autoComplete="off"
          error={errors.nextOfKinRelationship?.message}
          {...form.register('nextOfKinRelationship')}
        />
        <TextField
          label="Next of kin contact number"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          error={errors.nextOfKinContact?.message}
          {...form.register('nextOfKinContact')}
        />
      </fieldset>
      <DocumentPicker disabled={busy} />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {phase === 'registering'
          ? 'Creating account...'
          : phase === 'uploading'
            ? 'Uploading documents...'
            : 'Create Account'}
      </button>
    </form>
  );
}
