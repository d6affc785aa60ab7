import { parseCertificationUrls } from '@rescuelog/sync-protocol/accounts/uploads';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { useQueryClient } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { useState } from 'react';
import { BackToLoginButton } from '@/components/back-to-login-button';
import { StatusPage } from '@/components/ui/status-page';
import { errorMessage } from '@/lib/api-client';
import { setCurrentUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { uploadPickedDocuments } from '../api/upload-documents';
import { useDocumentUploads } from '../stores/document-uploads';
import { DocumentPicker } from './document-picker';
import styles from './pending-approval.module.css';

/** Uploading (or retrying) documents while the account waits for approval. */
function PendingDocuments({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const entries = useDocumentUploads((s) => s.entries);
  const [busy, setBusy] = useState(false);
  const waiting = entries.filter((e) => e.status !== 'uploaded');
  const failed = entries.some((e) => e.status === 'failed');
  const certCount = parseCertificationUrls(user.certificationsUrl).length;

  async function upload() {
    setBusy(true);
    try {
      const updated = await uploadPickedDocuments();
      if (updated) setCurrentUser(queryClient, updated);
      toast({ title: 'Documents uploaded', description: 'Your documents were sent for review.' });
    } catch (error) {
      toast({
        title: 'Upload failed',
        description: errorMessage(error) || 'Failed to upload documents',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.docs} aria-labelledby="pending-docs-title">
      <h2 id="pending-docs-title" className="section-title">
        Documents
      </h2>
      <p>
        ID document: {user.idDocumentUrl ? 'received' : 'not uploaded'}. Certifications:{' '}
        {certCount > 0 ? `${certCount} received` : 'none uploaded'}.
      </p>
      {failed ? (
        <p className="text-danger">Some documents were not uploaded. Retry below.</p>
      ) : null}
      <DocumentPicker
        disabled={busy}
        legend="Add documents"
        note="Choose files, then press Upload documents."
      />
      <button
        type="button"
        className="button button--secondary button--block"
        disabled={busy || waiting.length === 0}
        onClick={() => void upload()}
      >
        {busy ? 'Uploading documents...' : failed ? 'Retry upload' : 'Upload documents'}
      </button>
    </section>
  );
}

export function PendingApproval({ user }: { user: User }) {
  return (
    <StatusPage
      icon={<Clock size={40} />}
      title="Account Pending Approval"
      tone="warning"
      actions={<BackToLoginButton />}
    >
      <p>
        Your account is currently pending approval from an administrator. You will receive access
        once your account has been reviewed.
      </p>
      <PendingDocuments user={user} />
    </StatusPage>
  );
}
