import type { Dispatcher } from 'undici';

/** undici's header record as the fetch Headers connectors read (headers.get), repeated headers kept. */
export function toHeaders(raw: Dispatcher.ResponseData['headers']): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}
