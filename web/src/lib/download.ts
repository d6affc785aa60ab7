// Saves a file the device made (a PDF, an export) through the browser's download; works
// offline. The one way screens hand a file to the user.
const REVOKE_AFTER_MS = 30_000;

/** Saves a blob as a file through the browser's download (works offline). */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
