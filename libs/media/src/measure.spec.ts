import { measureMedia } from './measure';

const u16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);
const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const u64 = (value: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(value));
  return bytes;
};
const box = (type: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
};

// ISO/IEC 14496-12: mvhd 8.2.2 (v0: 32-bit times, v1: 64-bit), tkhd 8.3.2 (size last, 16.16 fixed point).
const mvhd0 = (timescale: number, duration: number) => box('mvhd', u32(0), u32(0), u32(0), u32(timescale), u32(duration), Buffer.alloc(80));
const mvhd1 = (timescale: number, duration: number) => box('mvhd', u32(0x01000000), u64(0), u64(0), u32(timescale), u64(duration), Buffer.alloc(80));
const tkhd = (width: number, height: number) => box('tkhd', u32(3), Buffer.alloc(72), u32(width * 0x10000), u32(height * 0x10000));
const ftyp = box('ftyp', Buffer.from('isom'), u32(0x200), Buffer.from('isomiso2mp41'));
const mdat = box('mdat', Buffer.alloc(1000));

describe('measureMedia: mp4/mov from the moov box', () => {
  it('reads the duration from mvhd and the size from the first video track (an audio track has none)', () => {
    const moov = box('moov', mvhd0(600, 27_000), box('trak', tkhd(0, 0)), box('trak', tkhd(1080, 1920)));
    expect(measureMedia('video/mp4', Buffer.concat([ftyp, moov, mdat]), false)).toEqual({ width: 1080, height: 1920, durationSeconds: 45 });
  });

  it('reads a version 1 mvhd (64-bit times)', () => {
    const moov = box('moov', mvhd1(90_000, 90_000 * 150), box('trak', tkhd(640, 360)));
    expect(measureMedia('video/quicktime', Buffer.concat([ftyp, moov, mdat]), false)).toEqual({ width: 640, height: 360, durationSeconds: 150 });
  });

  it('asks for more bytes while the moov box is cut short, and gives up on it once the file is complete', () => {
    const whole = Buffer.concat([ftyp, box('moov', mvhd0(1000, 5000), box('trak', tkhd(320, 240))), mdat]);
    const head = whole.subarray(0, ftyp.length + 40);
    expect(measureMedia('video/mp4', head, false)).toBeUndefined();
    expect(measureMedia('video/mp4', head, true)).toEqual({ width: null, height: null, durationSeconds: null });
  });

  it('cannot tell when the media data comes before moov (not faststart)', () => {
    const file = Buffer.concat([ftyp, mdat, box('moov', mvhd0(1000, 5000), box('trak', tkhd(320, 240)))]);
    expect(measureMedia('video/mp4', file, false)).toEqual({ width: null, height: null, durationSeconds: null });
  });

  it('reads a 64-bit box size', () => {
    const moov = box('moov', mvhd0(1000, 2500), box('trak', tkhd(100, 50)));
    const largeFree = Buffer.concat([u32(1), Buffer.from('free'), u64(24), Buffer.alloc(8)]);
    expect(measureMedia('video/mp4', Buffer.concat([ftyp, largeFree, moov]), false)).toEqual({ width: 100, height: 50, durationSeconds: 2.5 });
  });
});

describe('measureMedia: images through image-size', () => {
  const sof0 = (width: number, height: number) => Buffer.concat([Buffer.from([0xff, 0xc0]), u16(17), Buffer.from([8]), u16(height), u16(width), Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])]);
  const jfif = Buffer.concat([Buffer.from([0xff, 0xe0]), u16(16), Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]);
  /** An Exif APP1 segment whose IFD0 holds only the Orientation tag (274). */
  const exifOrientation = (orientation: number) => {
    const tiff = Buffer.concat([Buffer.from('MM\0*', 'latin1'), u32(8), u16(1), u16(274), u16(3), u32(1), u16(orientation), u16(0), u32(0)]);
    const content = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
    return Buffer.concat([Buffer.from([0xff, 0xe1]), u16(content.length + 2), content]);
  };

  it('reads a JPEG size from its SOF0', () => {
    expect(measureMedia('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), jfif, sof0(1600, 900)]), false)).toEqual({ width: 1600, height: 900, durationSeconds: null });
  });

  it('turns the size of a JPEG whose Exif orientation rotates it a quarter turn', () => {
    expect(measureMedia('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), exifOrientation(6), sof0(1600, 900)]), false)).toEqual({ width: 900, height: 1600, durationSeconds: null });
  });

  it('asks for more bytes until the size can be told, then null once the file has ended', () => {
    const head = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]);
    expect(measureMedia('image/jpeg', head, false)).toBeUndefined();
    expect(measureMedia('image/jpeg', head, true)).toEqual({ width: null, height: null, durationSeconds: null });
  });

  it('does not measure WebM', () => {
    expect(measureMedia('video/webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), false)).toEqual({ width: null, height: null, durationSeconds: null });
  });
});
