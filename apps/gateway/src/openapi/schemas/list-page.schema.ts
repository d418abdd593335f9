import { ApiProperty } from '@nestjs/swagger';

/** The nextCursor field of both list responses. */
export function NextCursorProperty(): PropertyDecorator {
  return ApiProperty({
    type: 'string',
    nullable: true,
    description: 'opaque: pass it as cursor, with the same filters, for the next page; null on the last page',
  });
}
