import { SetMetadata } from '@nestjs/common';

export const ACCEPTS_UPLOAD = 'acceptsUpload';

/**
 * The operation takes, besides a JSON body, a multipart/form-data upload, which its handler
 * reads as a stream (request.parts()): RequestShapeInterceptor lets exactly these two types through.
 */
export const AcceptsUpload = () => SetMetadata(ACCEPTS_UPLOAD, true);
