import { Readable } from 'node:stream';
import { FormData as UndiciFormData } from 'undici';
import type { PlatformRequest } from './platform-http';

/** A request's body as undici's request sends it, with the headers that describe it. */
export interface EncodedBody {
  body?: string | Uint8Array | Readable | UndiciFormData;
  headers: Record<string, string>;
}

export function encodeBody(request: PlatformRequest): EncodedBody {
  if (request.json !== undefined) return { body: JSON.stringify(request.json), headers: { 'content-type': 'application/json' } };
  if (request.form !== undefined) {
    return { body: new URLSearchParams(request.form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  if (request.raw !== undefined) {
    const { body, contentType } = request.raw;
    if (body instanceof Uint8Array) return { body, headers: { 'content-type': contentType } };
    // undici reads a Blob body whole into memory; a media file is streamed from disk instead,
    // its length declared so the platform gets a plain upload, not a chunked one.
    return { body: Readable.from(body.stream()), headers: { 'content-type': contentType, 'content-length': String(body.size) } };
  }
  // undici sets the multipart content type with its boundary.
  if (request.multipart !== undefined) return { body: undiciFormData(request.multipart), headers: {} };
  return { headers: {} };
}

/**
 * undici encodes only its own FormData class; connectors build the runtime's global one
 * (Node's bundled undici), which it would not recognise. The parts are carried over as
 * they are: file parts stay file-backed Blobs, read as they are sent.
 */
function undiciFormData(form: FormData): UndiciFormData {
  const copy = new UndiciFormData();
  form.forEach((value, name) => {
    if (typeof value === 'string') copy.append(name, value);
    else copy.append(name, value, value.name);
  });
  return copy;
}
