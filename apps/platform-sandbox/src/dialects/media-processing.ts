import type { Platform } from '@app/contracts';
import type { SandboxStore, SandboxUpload } from '../store';
import { processingEndsAt } from './uploaded-media';

/**
 * Starts the sandbox's processing of an uploaded video or GIF: it lasts as long as
 * processingEndsAt says (longer for a longer video: a test wanting a processing timeout sends
 * `seconds=600`), and ends in failure when the uploaded file's name (the multipart part's
 * filename, which clients take from the media url's last segment) contains `fail-processing`,
 * e.g. https://<media host>/media/fail-processing.mp4, or when the platform found the bytes
 * `unreadable` (not what the upload declared): the platform could not process it.
 */
export function startProcessing(upload: SandboxUpload, fileName: string, unreadable = false): void {
  upload.state = 'processing';
  upload.readyAt = processingEndsAt(upload.durationSeconds);
  if (unreadable || fileName.includes('fail-processing')) upload.extra.failsProcessing = 'true';
}

/** An upload as it stands now: processing until readyAt, then ready, or failed when its processing fails. */
export function currentUpload(store: SandboxStore, platform: Platform, id: string): SandboxUpload | undefined {
  const upload = store.upload(platform, id);
  if (upload?.state === 'ready' && upload.extra.failsProcessing === 'true') upload.state = 'failed';
  return upload;
}
