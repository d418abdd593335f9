import { OpenAPIObject } from '@nestjs/swagger';
import { OPERATION_EXAMPLES } from './operation-examples';

type MediaTypes = Record<string, { example?: unknown }>;

/** The media types an example is for: the JSON one when the operation offers it among others (a CSV upload, an NDJSON stream), else all. */
function exampled(content: MediaTypes): Array<{ example?: unknown }> {
  return content['application/json'] ? [content['application/json']] : Object.values(content);
}

/**
 * Puts each operation's examples (operation-examples.ts) on its request body and on its
 * answers, in the media type each declares (the JSON one, when there are others). An example for an answer the operation does not
 * declare is a mistake in the examples, refused here rather than shown out of place.
 */
export function withExamples(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (!operation || typeof operation !== 'object' || !('operationId' in operation)) continue;
      const examples = OPERATION_EXAMPLES[operation.operationId as string];
      if (!examples) continue;
      // An operation taking or answering other media types than JSON gives their examples by type.
      for (const [where, byType] of Object.entries(examples.otherMedia ?? {})) {
        const content = (where === 'request' ? (operation.requestBody as { content?: MediaTypes } | undefined) : (operation.responses[where] as { content?: MediaTypes } | undefined))?.content;
        for (const [type, example] of Object.entries(byType)) {
          if (!content?.[type]) throw new Error(`${operation.operationId}: an example for ${where} in ${type}, which it does not declare`);
          content[type].example = example;
        }
      }
      if (examples.request !== undefined) {
        const content = (operation.requestBody as { content?: MediaTypes } | undefined)?.content;
        if (!content) throw new Error(`${operation.operationId}: a request example, but no request body`);
        for (const media of exampled(content)) media.example = examples.request;
      }
      for (const [status, example] of Object.entries(examples.responses)) {
        const content = (operation.responses[status] as { content?: MediaTypes } | undefined)?.content;
        if (!content) throw new Error(`${operation.operationId}: an example for ${status}, which it does not answer with a body`);
        for (const media of exampled(content)) media.example = example;
      }
    }
  }
  return document;
}
