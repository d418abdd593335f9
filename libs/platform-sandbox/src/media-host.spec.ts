import { describeSandboxMedia } from './media-host';

describe('describeSandboxMedia: what a media url of the sandbox holds, without fetching it', () => {
  it('reads the format from the extension and the rest from the parameters, with the defaults', () => {
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/clip.mp4?bytes=5000000&width=1080&height=1920&seconds=30')).toEqual({
      contentType: 'video/mp4',
      bytes: 5_000_000,
      width: 1080,
      height: 1920,
      seconds: 30,
      status: 200,
    });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/photo.jpg')).toEqual({ contentType: 'image/jpeg', bytes: 4096, width: 1200, height: 800, seconds: null, status: 200 });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.mov')).toMatchObject({ contentType: 'video/quicktime', seconds: 10 });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.webm')).toMatchObject({ contentType: 'video/webm' });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.gif')).toMatchObject({ contentType: 'image/gif', seconds: null });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.webp')).toMatchObject({ contentType: 'image/webp' });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.png')).toMatchObject({ contentType: 'image/png' });
  });

  it('tells text apart, the status a url answers, and that the Content-Type lie does not change the bytes', () => {
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/notes.txt')).toEqual({ contentType: 'text/plain', bytes: 4096, width: null, height: null, seconds: null, status: 200 });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.jpg?status=503')).toMatchObject({ status: 503 });
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.jpg?contentType=video/mp4')).toMatchObject({ contentType: 'image/jpeg' });
  });

  it('is null for anything else', () => {
    expect(describeSandboxMedia('https://cdn.example.com/photo')).toBeNull();
    expect(describeSandboxMedia('https://127.0.0.1:4011/media/a.bmp')).toBeNull();
    expect(describeSandboxMedia('not a url')).toBeNull();
  });
});
