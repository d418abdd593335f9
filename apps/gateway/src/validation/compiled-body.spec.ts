import 'reflect-metadata';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { CreatePostDto } from '../posts/create-post.dto';
import { EditPostDto } from '../posts/edit-post.dto';
import { compiledBodyOf } from './compiled-body';
import { bodyValidation } from './validation-pipes';

/** class-validator's own answer, the way every body went before the compiled fast path. */
function classValidatorPath(body: unknown, metadata: ArgumentMetadata): Promise<unknown> {
  return ValidationPipe.prototype.transform.call(bodyValidation, body, metadata);
}

const DTOS = [CreatePostDto, EditPostDto];

/** The names a DTO declares, misspellings of them, nested ones (which the fast path never takes) and any. */
function nameOf(declared: string[]): fc.Arbitrary<string> {
  return fc.oneof(fc.constantFrom(...declared), fc.constantFrom('contnet', 'account', 'publish_now', 'scheduled_at'), fc.string({ maxLength: 8 }));
}

const scalar = fc.oneof(fc.string({ maxLength: 12 }), fc.boolean(), fc.constant(null), fc.integer(), fc.double(), fc.constant(''));
const anyValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 12 }), fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }), fc.array(fc.array(fc.string(), { maxLength: 2 }), { maxLength: 2 }));

/** Bodies of the right types: most of them the fast path takes, so the comparison is not vacuous. */
const wellTyped = fc.record(
  {
    content: fc.option(fc.string({ maxLength: 40 })),
    accounts: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 12 })),
    platforms: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 })),
    scheduledAt: fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()))),
    publishNow: fc.option(fc.boolean()),
    queue: fc.option(fc.boolean()),
    mediaUrls: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 11 })),
    altText: fc.option(fc.array(fc.option(fc.string({ maxLength: 12 })), { maxLength: 11 })),
    firstComments: fc.option(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 })),
    autoSplit: fc.option(fc.boolean()),
  },
  { requiredKeys: [] },
);

describe('the compiled body check (fast path before class-validator)', () => {
  it.each(DTOS)('exists for %p, compiled from the OpenAPI document', (dto) => {
    expect(compiledBodyOf(dto)).not.toBeNull();
  });

  it.each(DTOS)('takes a body of %p only when class-validator accepts it, as the same DTO', async (dto) => {
    const compiled = compiledBodyOf(dto)!;
    const metadata: ArgumentMetadata = { type: 'body', metatype: dto };
    const declared = Object.keys(new dto());
    // Only the names this DTO declares (an edit takes no publishNow): most such bodies the fast path takes.
    const typed = wellTyped.map((body) => Object.fromEntries(Object.entries(body).filter(([name]) => declared.includes(name))));
    const anyBody = fc.oneof(fc.dictionary(nameOf(declared), anyValue, { maxKeys: 5 }), anyValue);
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(typed, anyBody, fc.tuple(typed, fc.dictionary(nameOf(declared), anyValue, { maxKeys: 2 })).map(([a, b]) => ({ ...a, ...b }))), async (body) => {
        if (!compiled.accepts(structuredClone(body))) return;
        taken++;
        const reference = await classValidatorPath(structuredClone(body), metadata);
        expect(compiled.instance(structuredClone(body) as object)).toStrictEqual(reference);
        expect(await bodyValidation.transform(structuredClone(body), metadata)).toStrictEqual(reference);
      }),
      { numRuns: 3000 },
    );
    // A property that never ran its comparison would prove nothing.
    expect(taken).toBeGreaterThan(500);
  });

  it('leaves every refusal to class-validator: an unknown field keeps its suggestion', async () => {
    const metadata: ArgumentMetadata = { type: 'body', metatype: CreatePostDto };
    await expect(bodyValidation.transform({ contnet: 'hi', accounts: ['x:@a'] }, metadata)).rejects.toMatchObject({ code: 'unknown_field' });
    expect(compiledBodyOf(CreatePostDto)!.accepts({ contnet: 'hi' })).toBe(false);
  });

  it('leaves nested fields to class-validator (overrides, thread, platformOptions)', () => {
    const compiled = compiledBodyOf(CreatePostDto)!;
    expect(compiled.accepts({ content: 'hi', overrides: {} })).toBe(false);
    expect(compiled.accepts({ content: 'hi', thread: [] })).toBe(false);
    expect(compiled.accepts({ content: 'hi', platformOptions: {} })).toBe(false);
    expect(compiled.accepts({ content: 'hi', accounts: ['x:@a'] })).toBe(true);
  });
});
