import { OpenAPIObject } from '@nestjs/swagger';
import { OPERATION_EXAMPLES } from './operation-examples';

type MediaTypes = Record<string, { example?: unknown }>;

/**
 * Puts each operation's examples (operation-examples.ts) on its request body and on its
 * answers, in the media type each declares. An example for an answer the operation does not
 * declare is a mistake in the examples, refused here rather than shown out of place.
 */
export function withExamples(document: OpenAPIObject): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem)) {
      if (!operation || typeof operation !== 'object' || !('operationId' in operation)) continue;
      const examples = OPERATION_EXAMPLES[operation.operationId as string];
      if (!examples) continue;
      if (examples.request !== undefined) {
        const content = (operation.requestBody as { content?: MediaTypes } | undefined)?.content;
        if (!content) throw new Error(`${operation.operationId}: a request example, but no request body`);
        for (const media of Object.values(content)) media.example = examples.request;
      }
      for (const [status, example] of Object.entries(examples.responses)) {
        const content = (operation.responses[status] as { content?: MediaTypes } | undefined)?.content;
        if (!content) throw new Error(`${operation.operationId}: an example for ${status}, which it does not answer with a body`);
        for (const media of Object.values(content)) media.example = example;
      }
    }
  }
  return document;
}
